/* Every Check suite, one per module. */
#ifndef TF_TESTS_SUITES_H
#define TF_TESTS_SUITES_H

#include <check.h>

Suite *expr_suite(void);
Suite *json_suite(void);
Suite *json_out_suite(void);
Suite *machine_suite(void);
Suite *workset_suite(void);
Suite *problem_suite(void);
Suite *memory_suite(void);
Suite *forms_suite(void);
Suite *reuse_suite(void);
Suite *encode_suite(void);
Suite *oracle_suite(void);
Suite *property_suite(void);
Suite *cli_suite(void);
Suite *e2e_suite(void);
Suite *sweep_suite(void);
Suite *bad_suite(void);
Suite *limits_suite(void);
Suite *plot_suite(void);
Suite *probe_suite(void);
Suite *report_suite(void);
Suite *cutlass_name_suite(void);
Suite *configs_suite(void);
Suite *prune_suite(void);
Suite *search_suite(void);
Suite *space_suite(void);
Suite *api_suite(void);
Suite *public_suite(void);
Suite *run_suite(void);
Suite *solve_ilp_suite(void);
Suite *output_suite(void);
Suite *roofline_suite(void);
Suite *layout_suite(void);
Suite *emit_suite(void);
Suite *measured_suite(void);

Suite *contract_suite(void);
Suite *suggest_suite(void);
Suite *time_models_suite(void);

#endif
