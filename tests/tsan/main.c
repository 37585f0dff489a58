/* The runner of `make tsan`: the api suite alone, from a ThreadSanitizer
 * build of the library (CK_RUN_CASE=threads picks the threaded case). */
#include <check.h>
#include <stdlib.h>

#include "tests/suites.h"

int main(void) {
  SRunner *sr = srunner_create(api_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
