/* A stand-in for libcuda.so.1 that answers like one NVIDIA H200 SXM, for
 * testing `tilefit probe` without a GPU (TILEFIT_CUDA_LIB=this library).
 * Values: machines/h200.json (sources S9, S10) and the cc 9.0 rules
 * (S1, S2, S4): 132 SMs, 1980 MHz max SM clock, 227 KB opt-in SMEM per CTA
 * of 228 KB per SM, 1 KB reserved per CTA, 65536 registers, 2048 threads and
 * 32 CTAs per SM, 1024 threads per CTA, 50 MB L2, and a 6144-bit HBM3e bus
 * at 3125 MHz (2 x 3.125 GHz x 768 B = 4.8 TB/s, the 4800 GB/s of S10).
 * The attribute numbers are the CUDA driver API's CUdevice_attribute values.
 * TILEFIT_STUB_FAIL=init makes cuInit fail (CUDA_ERROR_NO_DEVICE, 100);
 * TILEFIT_STUB_FAIL=count reports no device; crash, abort, hang and exit
 * make cuInit do that (a driver must not take tilefit with it); name gives
 * a device name that is not UTF-8. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fail(void) {
  const char *f = getenv("TILEFIT_STUB_FAIL");
  return f ? f : "";
}

int cuInit(unsigned flags) {
  (void)flags;
  if (!strcmp(fail(), "crash"))
    raise(SIGSEGV);
  if (!strcmp(fail(), "abort"))
    abort();
  if (!strcmp(fail(), "exit"))
    exit(0);
  while (!strcmp(fail(), "hang"))
    pause();
  return strcmp(fail(), "init") ? 0 : 100;
}

int cuDeviceGetCount(int *count) {
  *count = strcmp(fail(), "count") ? 1 : 0;
  return 0;
}

int cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? 0 : 101; /* CUDA_ERROR_INVALID_DEVICE */
}

int cuDeviceGetName(char *name, int len, int device) {
  if (device != 0 || len < 12)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  strcpy(name, strcmp(fail(), "name") ? "NVIDIA H200" : "NVIDIA \xff\xfe\x1b H200");
  return 0;
}

int cuGetErrorName(int error, const char **name) {
  *name = error == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
  return 0;
}

int cuDeviceGetAttribute(int *value, int attribute, int device) {
  static const struct {
    int attribute, value;
  } h200[] = {
      {1, 1024},      /* MAX_THREADS_PER_BLOCK */
      {13, 1980000},  /* CLOCK_RATE, kHz */
      {16, 132},      /* MULTIPROCESSOR_COUNT */
      {36, 3125000},  /* MEMORY_CLOCK_RATE, kHz */
      {37, 6144},     /* GLOBAL_MEMORY_BUS_WIDTH, bits */
      {38, 52428800}, /* L2_CACHE_SIZE */
      {39, 2048},     /* MAX_THREADS_PER_MULTIPROCESSOR */
      {75, 9},        /* COMPUTE_CAPABILITY_MAJOR */
      {76, 0},        /* COMPUTE_CAPABILITY_MINOR */
      {81, 233472},   /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
      {82, 65536},    /* MAX_REGISTERS_PER_MULTIPROCESSOR */
      {97, 232448},   /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
      {106, 32},      /* MAX_BLOCKS_PER_MULTIPROCESSOR */
      {111, 1024},    /* RESERVED_SHARED_MEMORY_PER_BLOCK */
  };
  if (device != 0)
    return 101;
  for (size_t i = 0; i < sizeof h200 / sizeof *h200; i++)
    if (h200[i].attribute == attribute) {
      *value = h200[i].value;
      return 0;
    }
  return 1; /* CUDA_ERROR_INVALID_VALUE */
}
