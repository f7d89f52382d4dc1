/* A stand-in for the NVIDIA driver's libnvidia-ml.so.1, for tests on machines without one (pynvml loads it
   by that name with ctypes, so LD_LIBRARY_PATH picks this one). Built with -DCRASH, starting NVML crashes
   the process the way a broken driver library does: a read through a null pointer (SIGSEGV). Built with
   -DHANG, starting NVML never returns, as with a driver stuck in the kernel. Built with neither, NVML starts
   and reports no GPU. Signatures as in nvml.h; pynvml's nvmlInit calls nvmlInitWithFlags. */
#include <stdio.h>
#include <unistd.h>

#define DRIVER_VERSION "test-library"

int nvmlInitWithFlags(unsigned int flags) {
    (void)flags;
#if defined(CRASH)
    volatile int *nowhere = 0;
    return *nowhere;
#elif defined(HANG)
    for (;;)
        pause();
#else
    return 0;
#endif
}

int nvmlInit_v2(void) { return nvmlInitWithFlags(0); }

int nvmlShutdown(void) { return 0; }

int nvmlDeviceGetCount_v2(unsigned int *count) {
    *count = 0;
    return 0;
}

int nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    snprintf(version, length, "%s", DRIVER_VERSION);
    return 0;
}

const char *nvmlErrorString(int result) {
    (void)result;
    return "stand-in library";
}
