#include "cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer, which ISO C leaves undefined, hence the memcpy. */
static int symbol(void *lib, const char *name, void *fn, size_t fn_size, char *why, size_t size) {
  void *p = dlsym(lib, name);
  if (!p) {
    snprintf(why, size, "%s: undefined symbol in the CUDA driver library", name);
    return -1;
  }
  memcpy(fn, &p, fn_size);
  return 0;
}

int tf_cuda_open(tf_cuda *c, const char *lib, char *why, size_t size) {
  memset(c, 0, sizeof *c);
  if (!lib)
    lib = getenv("TILEFIT_CUDA_LIB");
  if (!lib || !*lib)
    lib = "libcuda.so.1";
  c->lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!c->lib) {
    const char *e = dlerror();
    snprintf(why, size, "%s", e ? e : lib);
    return -1;
  }
  if (symbol(c->lib, "cuInit", &c->init, sizeof c->init, why, size) ||
      symbol(c->lib, "cuDeviceGetCount", &c->device_count, sizeof c->device_count, why, size) ||
      symbol(c->lib, "cuDeviceGet", &c->device_get, sizeof c->device_get, why, size) ||
      symbol(c->lib, "cuDeviceGetName", &c->device_name, sizeof c->device_name, why, size) ||
      symbol(c->lib, "cuDeviceGetAttribute", &c->attribute, sizeof c->attribute, why, size)) {
    tf_cuda_close(c);
    return -1;
  }
  char ignored[8];
  if (symbol(c->lib, "cuGetErrorName", &c->error_name, sizeof c->error_name, ignored, sizeof ignored))
    c->error_name = NULL;
  return 0;
}

void tf_cuda_close(tf_cuda *c) {
  if (c->lib)
    dlclose(c->lib);
  memset(c, 0, sizeof *c);
}

void tf_cuda_error_text(const tf_cuda *c, int error, char *buf, size_t size) {
  const char *name = NULL;
  if (c->error_name && c->error_name(error, &name) == 0 && name)
    snprintf(buf, size, "%s (%d)", name, error);
  else
    snprintf(buf, size, "CUDA error %d", error);
}
