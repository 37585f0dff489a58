/* A signal that ends the command line while it writes a file whole
 * (SIGTERM, SIGINT, SIGHUP during `sweep -o FILE`): the temporary file is
 * removed before the process dies of the signal, so that only `kill -9`
 * can leave one behind (docs/reliability.md, "Output files").  The
 * handler does what is async-signal-safe only: unlink(2) of a name copied
 * beforehand, then the signal again at its default action.  A signal the
 * caller ignores (nohup's SIGHUP) stays ignored.  The command line's own,
 * one thread: the library never installs a handler. */
#ifndef TF_SOLVER_CLI_SIGNALS_H
#define TF_SOLVER_CLI_SIGNALS_H

/* Installs the handlers (the dispositions they replace are kept). */
void tf_cli_signals_install(void);
/* The dispositions as they were before tf_cli_signals_install. */
void tf_cli_signals_restore(void);
/* tf_sweep_opts.tmp_name: the name to remove (NULL: none). */
void tf_cli_signals_tmp(void *ctx, const char *path);

#endif
