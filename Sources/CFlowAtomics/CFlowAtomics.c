// Everything in this target is a static inline function in include/CFlowAtomics.h, compiled
// into its callers; SwiftPM wants one source file per C target.
#include "CFlowAtomics.h"
