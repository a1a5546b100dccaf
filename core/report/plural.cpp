// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"

namespace bwlab {

std::string noun_for(bool one, std::string_view singular, std::string_view plural) {
  if (one) return std::string(singular);
  if (!plural.empty()) return std::string(plural);
  return std::string(singular) + 's';
}

}  // namespace bwlab
