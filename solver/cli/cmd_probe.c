/* tilefit probe: a machine model of the local GPU (solver/probe/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/output.h"
#include "solver/probe/probe.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_probe = {"probe",
                                 TF_CMD_PROBE,
                                 run,
                                 "write a machine model of the local GPU (CUDA driver API)",
                                 "",
                                 0,
                                 "Writes a machine model of CUDA device 0, read from the CUDA driver API at run\n"
                                 "time (libcuda.so.1, or the library $TILEFIT_CUDA_LIB names): SMEM per CTA\n"
                                 "(opt-in) and per SM, the reserve per CTA, registers per SM, SM count, SM and\n"
                                 "memory clocks with the bus width, L2, threads and CTAs per SM, the compute\n"
                                 "capability.  What the driver does not report (TMEM, tensor and exp throughput,\n"
                                 "granules, carveouts, registers per thread) comes from the shipped model of the\n"
                                 "same architecture.  Every number's source says which.  The machine's name is\n"
                                 "FILE's stem, or without -o the device's name ('nvidia-h200').  The result loads\n"
                                 "as a machine: tilefit machines FILE.json, tilefit solve -m FILE.json.\n",
                                 "0 written, 2 no GPU (no driver, cuInit fails, no device) or bad usage, 3 the\n"
                                 "      output cannot be written",
                                 0,
                                 NULL,
                                 TF_OPERANDS_NONE};

/* FILE's stem when it is a valid machine name ("h200-probed" from
 * "out/h200-probed.json"), else NULL. */
static const char *stem(const char *file, char *buf, size_t size) {
  if (!file || !strcmp(file, "-"))
    return NULL;
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  size_t n = strlen(base);
  if (n > 5 && !strcmp(base + n - 5, ".json"))
    n -= 5;
  if (n == 0 || n >= size || n > 64)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    char c = base[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (i > 0 && (c == '.' || c == '_' || c == '-'))))
      return NULL;
  }
  memcpy(buf, base, n);
  buf[n] = 0;
  return buf;
}

static int run(int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = tf_cli_start(&tf_cmd_probe, argc, argv, &a);
  if (rc != TF_CLI_GO)
    return tf_args_release(&a), rc;
  char name[80];
  char *json = tf_probe_machine(NULL, stem(a.out_file, name, sizeof name), &err);
  rc = json && !tf_write_file_whole(a.out_file, json, strlen(json), "-o", &err) ? TF_EXIT_OK : tf_cli_fail(&err);
  free(json);
  tf_args_release(&a);
  return rc;
}
