/* One runner for every suite; exits non-zero if any test failed. */
#include <check.h>
#include <stdlib.h>

#include "tests/suites.h"

int main(void) {
  SRunner *sr = srunner_create(expr_suite());
  srunner_add_suite(sr, json_suite());
  srunner_add_suite(sr, json_out_suite());
  srunner_add_suite(sr, machine_suite());
  srunner_add_suite(sr, workset_suite());
  srunner_add_suite(sr, problem_suite());
  srunner_add_suite(sr, memory_suite());
  srunner_add_suite(sr, forms_suite());
  srunner_add_suite(sr, reuse_suite());
  srunner_add_suite(sr, encode_suite());
  srunner_add_suite(sr, oracle_suite());
  srunner_add_suite(sr, property_suite());
  srunner_add_suite(sr, cli_suite());
  srunner_add_suite(sr, e2e_suite());
  srunner_add_suite(sr, sweep_suite());
  srunner_add_suite(sr, bad_suite());
  srunner_add_suite(sr, limits_suite());
  srunner_add_suite(sr, plot_suite());
  srunner_add_suite(sr, probe_suite());
  srunner_add_suite(sr, report_suite());
  srunner_add_suite(sr, cutlass_name_suite());
  srunner_add_suite(sr, configs_suite());
  srunner_add_suite(sr, prune_suite());
  srunner_add_suite(sr, search_suite());
  srunner_add_suite(sr, space_suite());
  srunner_add_suite(sr, contract_suite());
  srunner_add_suite(sr, suggest_suite());
  srunner_add_suite(sr, api_suite());
  srunner_add_suite(sr, public_suite());
  srunner_add_suite(sr, run_suite());
  srunner_add_suite(sr, solve_ilp_suite());
  srunner_add_suite(sr, output_suite());
  srunner_add_suite(sr, roofline_suite());
  srunner_add_suite(sr, layout_suite());
  srunner_add_suite(sr, emit_suite());
  srunner_add_suite(sr, measured_suite());
  srunner_add_suite(sr, time_models_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
