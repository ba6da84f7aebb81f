#!/bin/bash -eu
# ClusterFuzzLite's build step: the project's OSS-Fuzz build script, so ClusterFuzzLite and
# OSS-Fuzz build the same targets the same way (see Fuzz/oss-fuzz/build.sh for $OUT's
# layout and how $SWIFTFLAGS from the Swift base builder is used).
exec "${FLOW_SRC:-$SRC/flow-core}/Fuzz/oss-fuzz/build.sh"
