// SPDX-License-Identifier: MIT
#include "core/report/cpu_name.hpp"

#include <cctype>
#include <sstream>
#include <vector>

namespace bwlab {

std::string normalize_cpu(std::string_view raw) {
  std::string s(raw);
  for (const char* mark : {"(R)", "(r)", "(TM)", "(tm)"})
    for (std::size_t p; (p = s.find(mark)) != std::string::npos;) s.erase(p, std::string_view(mark).size());
  if (const auto at = s.find(" @ "); at != std::string::npos) s.erase(at);
  if (const auto par = s.find(" ("); par != std::string::npos) s.erase(par);
  std::vector<std::string> w;
  std::istringstream in(s);
  for (std::string word; in >> word;) w.push_back(word);
  std::string out;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "CPU") continue;
    // "11th Gen Intel Core ...": the generation words are not in the model name the presets use.
    if (i == 0 && w.size() > 2 && w[1] == "Gen" && std::isdigit(static_cast<unsigned char>(w[0][0]))) {
      ++i;
      continue;
    }
    if (!out.empty()) out.push_back(' ');
    out += w[i];
  }
  return out;
}

bool same_cpu(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return false;
  return a == b || normalize_cpu(a) == normalize_cpu(b);
}

}  // namespace bwlab
