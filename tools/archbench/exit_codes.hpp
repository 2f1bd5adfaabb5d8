// archbench's exit codes (documented in docs/exit-codes.md, whose table tools/readme/check_docs.py
// checks against this file).
#pragma once

namespace archbench::cli {

enum ExitCode : int {
  kOk = 0,            // everything ran; every operator has an image (or is unsupported) and is correct
  kOperatorFailed = 1,  // an operator (run) or kernel (inspect) has no usable image; a wrong result; an error; a probe disagreement
  kUsage = 2,         // bad command line (unknown option, bad --dtype, --filter matching nothing, bad --device)
  kNoDevice = 3,      // no usable CUDA driver or device: the message decodes the driver error
  kInternal = 4,      // archbench itself failed (a worker died, an output could not be written)
  kBadInput = 5,      // an input file cannot be read or is malformed (inspect: not ELF/fatbin, truncated, hostile)
};

}  // namespace archbench::cli
