/* The few CUDA driver API entry points `tilefit probe` needs, loaded at
 * run time with dlopen: no CUDA header or library at build time.  The
 * types and values are those of the CUDA driver API (cuda.h): CUresult and
 * CUdevice are ints, CUdevice_attribute an enum whose values are fixed by
 * the API; only the ones used are declared here. */
#ifndef TF_SOLVER_PROBE_CUDA_H
#define TF_SOLVER_PROBE_CUDA_H

#include <stddef.h>

/* CUdevice_attribute values (cuda.h, enum CUdevice_attribute_enum). */
enum tf_cu_attribute {
  TF_CU_MAX_THREADS_PER_BLOCK = 1,                 /* CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
  TF_CU_CLOCK_RATE = 13,                           /* CU_DEVICE_ATTRIBUTE_CLOCK_RATE, kHz */
  TF_CU_MULTIPROCESSOR_COUNT = 16,                 /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
  TF_CU_MEMORY_CLOCK_RATE = 36,                    /* CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, kHz */
  TF_CU_GLOBAL_MEMORY_BUS_WIDTH = 37,              /* CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, bits */
  TF_CU_L2_CACHE_SIZE = 38,                        /* CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, bytes */
  TF_CU_MAX_THREADS_PER_MULTIPROCESSOR = 39,       /* CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR */
  TF_CU_COMPUTE_CAPABILITY_MAJOR = 75,             /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
  TF_CU_COMPUTE_CAPABILITY_MINOR = 76,             /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR */
  TF_CU_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81, /* CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
  TF_CU_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,     /* CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR */
  TF_CU_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,    /* CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
  TF_CU_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,       /* CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR */
  TF_CU_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,    /* CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK */
};

typedef struct tf_cuda {
  void *lib;
  /* CUresult cuInit(unsigned int Flags) */
  int (*init)(unsigned flags);
  /* CUresult cuDeviceGetCount(int *count) */
  int (*device_count)(int *count);
  /* CUresult cuDeviceGet(CUdevice *device, int ordinal) */
  int (*device_get)(int *device, int ordinal);
  /* CUresult cuDeviceGetName(char *name, int len, CUdevice dev) */
  int (*device_name)(char *name, int len, int device);
  /* CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) */
  int (*attribute)(int *value, int attribute, int device);
  /* CUresult cuGetErrorName(CUresult error, const char **pStr); may be NULL */
  int (*error_name)(int error, const char **name);
} tf_cuda;

/* Loads `lib` (NULL: $TILEFIT_CUDA_LIB, else "libcuda.so.1").  Returns 0,
 * or -1 with the reason in why ("libcuda.so.1: cannot open shared object
 * file", "cuDeviceGetAttribute: undefined symbol"). */
int tf_cuda_open(tf_cuda *c, const char *lib, char *why, size_t size);
void tf_cuda_close(tf_cuda *c);

/* "CUDA_ERROR_NO_DEVICE (100)", or "CUDA error 100" without cuGetErrorName. */
void tf_cuda_error_text(const tf_cuda *c, int error, char *buf, size_t size);

#endif
