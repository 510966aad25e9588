#include "fault_injector.h"

#include <utility>

namespace tcu {

void FaultInjector::on_write_back(WbWord* words, int n) {
  if (due(Fault::kLaneSwap))
    for (int i = 1; i < n; ++i)
      if (words[i].data != words[0].data && words[i].lane != words[0].lane) {
        std::swap(words[0].lane, words[i].lane);
        done_ = true;
        break;
      }
  if (due(Fault::kDBit) && n > 0) {
    words[0].data ^= 1;
    done_ = true;
  }
}

}  // namespace tcu
