/* Internal to solver/: the JSON API's solve and check (api_solve.c), which
 * the dispatch table (api_json.c) names.  Each answers the request on out,
 * API_OK, API_NO or API_USAGE with x->err set (api_request.h). */
#ifndef TF_SOLVER_API_SOLVE_H
#define TF_SOLVER_API_SOLVE_H

#include <stdio.h>

#include "solver/api_request.h"

int tf_api_solve(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_check(const cJSON *req, FILE *out, api_ctx *x);

#endif
