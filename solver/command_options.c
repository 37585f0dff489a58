#include "solver/command_options.h"

#include "model/core/json_out.h"

#define TF_COPT_ROW(id, key, flag, kind, commands, fronts, lo, hi) \
  {key, flag, TF_OPTK_##kind, commands, fronts, lo, hi},
const tf_command_option tf_command_options[TF_NCOMMAND_OPTIONS] = {TF_COMMAND_OPTIONS(TF_COPT_ROW)};

#define TF_COPT_OFFSET(id, key, flag, kind, commands, fronts, lo, hi) offsetof(tf_command_args, id),
const size_t tf_command_arg_offsets[TF_NCOMMAND_OPTIONS] = {TF_COMMAND_OPTIONS(TF_COPT_OFFSET)};

/* The command line's names, a bit each, in bit order. */
static const char *const command_names[] = {"solve", "check", "machines", "worksets",   "validate", "sweep",  "merge",
                                            "prune", "plot",  "plot map", "plot sweep", "probe",    "layout", "emit"};

const char *tf_command_name(unsigned bit) {
  for (size_t i = 0; i < sizeof command_names / sizeof *command_names; i++)
    if (bit == 1u << i)
      return command_names[i];
  return NULL;
}

static const char *const kind_names[] = {"int",  "seconds", "flag",  "noflag", "word",
                                         "text", "pairs",   "shard", "operand"};

const char *tf_option_kind_name(int kind) {
  return kind >= 0 && kind < (int)(sizeof kind_names / sizeof *kind_names) ? kind_names[kind] : "";
}

void tf_command_options_write_json(FILE *f) {
  static const char *const fronts[] = {"cli", "json", "python"};
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_array(&w);
  for (size_t i = 0; i < TF_NCOMMAND_OPTIONS; i++) {
    const tf_command_option *o = &tf_command_options[i];
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "key", o->key);
    tf_json_out_key_string(&w, "flag", o->flag);
    tf_json_out_key_string(&w, "kind", tf_option_kind_name(o->kind));
    tf_json_out_key_array(&w, "commands");
    for (unsigned bit = 1; bit && bit <= TF_CMD_LAST; bit <<= 1)
      if (o->commands & bit)
        tf_json_out_string(&w, tf_command_name(bit));
    tf_json_out_end(&w);
    tf_json_out_key_array(&w, "fronts");
    for (int k = 0; k < 3; k++)
      if (o->fronts & (1u << k))
        tf_json_out_string(&w, fronts[k]);
    tf_json_out_end(&w);
    tf_json_out_end(&w);
  }
  tf_json_out_end(&w);
}
