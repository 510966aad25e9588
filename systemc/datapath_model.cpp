#include "datapath_model.h"

#include <stdexcept>

namespace tcu {

const DatapathConfig& datapath_config(const std::string& config) {
  for (const auto& [name, datapath] : datapath_configs())
    if (name == config) return datapath;
  throw std::invalid_argument("unknown datapath configuration '" + config + "'");
}

}  // namespace tcu
