// Exit codes of the tcu tool, one per class of outcome.
#pragma once

namespace tcu {

enum ExitCode : int {
  kExitOk = 0,
  kExitMismatch = 1,        // some result differed from the expectation
  kExitUsage = 2,           // bad command line
  kExitBadVectorFile = 3,   // unreadable or malformed vector file
  kExitBadInstruction = 4,  // unknown or illegal PTX spelling
  kExitBadOperand = 5,      // invalid sparse metadata or selector
  kExitInternal = 6,        // a bug in the tool itself
};

}  // namespace tcu
