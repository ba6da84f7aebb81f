// Everything in this target is a static inline function in include/CFlowSIMD.h, compiled
// into its callers; SwiftPM wants one source file per C target.
#include "CFlowSIMD.h"
