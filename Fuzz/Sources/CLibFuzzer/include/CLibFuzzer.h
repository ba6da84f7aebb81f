// libFuzzer's byte mutator, for the envelope mutator's fallback (FlowWorkloads'
// FuzzHarness.customMutator). Only a libFuzzer link defines it, so only the fuzz executables
// import this header; FlowWorkloads takes the function as a closure and its tests run without it.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

#endif
