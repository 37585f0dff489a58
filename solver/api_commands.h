/* Internal to solver/: the JSON API's commands besides solve and check
 * (api_commands.c), which the dispatch table (api_json.c) names. */
#ifndef TF_SOLVER_API_COMMANDS_H
#define TF_SOLVER_API_COMMANDS_H

#include <stdio.h>

#include "solver/api_request.h"

/* The commands besides solve and check (api_commands.c): each answers
 * the request on out, API_OK, API_NO or API_USAGE with x->err set. */
int tf_api_layout(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_emit(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_plot(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_sweep(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_validate(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_machines(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_worksets(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_machine(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_workset(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_options(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_version(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_prune(const cJSON *req, FILE *out, api_ctx *x);

#endif
