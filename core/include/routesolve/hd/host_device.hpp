#pragma once
// RS_HD marks a function compiled for host and device: `__host__ __device__` under nvcc, nothing
// under g++. Every header of routesolve/hd/ is plain C++17 without the standard library's
// containers, so that nvcc (device code) and g++ (the host twins, the CPU backend) compile the
// same definitions.

#if defined(__CUDACC__)
#define RS_HD __host__ __device__
#else
#define RS_HD
#endif
