// Fault injection, for tests of what a failing GPU does to a program: with the environment variable
// DPX_FAULT_INJECT=KIND:N (KIND alloc, copy or launch; N from 1) the Nth CUDA allocation
// (cudaMalloc*, cudaHostAlloc), copy (cudaMemcpy*, cudaMemset*) or kernel launch of the process
// that libdpx checks (DPX_CUDA_TRY, the check after each launch) fails as if CUDA had refused it,
// without being made; every other call runs as usual. The variable is read once; unset (or not of
// that form) nothing fails and each check costs one test of a flag. Tests arm and disarm it while
// the process runs with set_fault_injection (the same setting, replacing the variable's), and read
// with fault_injection_count how many calls of the armed kind were made: arming "KIND:N" with an N
// beyond reach counts the calls of a run without failing any.
#pragma once

namespace dpx {

// True when DPX_FAULT_INJECT (or set_fault_injection) asks for a failure.
bool fault_injection_armed();

enum class Fault { kNone, kAlloc, kCopy, kLaunch };

// Counts `call` (a CUDA runtime call's text, or "launch of NAME") when it is of the armed kind;
// its kind when it is the one to fail, else kNone. Thread-safe.
Fault fault_due(const char* call);

// Replaces what DPX_FAULT_INJECT said ("KIND:N", or nullptr for none) and restarts the count; for
// tests of the injection itself.
void set_fault_injection(const char* setting);

// The calls of the armed kind counted since it was armed (the failed one included); 0 when unarmed.
long fault_injection_count();

}  // namespace dpx
