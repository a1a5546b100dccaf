// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/sweep/parse.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {
namespace {

template <class T>
void push_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// "Mb", "Gb", "Kb": bits by convention, not bytes (24.75Mb was read as 24.75 MiB): no unit of ours.
bool is_bit_unit(std::string_view unit) {
  return unit.size() == 2 && std::isupper(static_cast<unsigned char>(unit[0])) && unit[1] == 'b';
}

// The power of two of a size unit, any case: "" and B 0, K/KB/KiB 10, M 20, G 30, T 40; -1 for
// anything else (bit units included).
int size_unit_shift(std::string_view text) {
  std::string unit(text);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::toupper(c); });
  if (is_bit_unit(text)) return -1;
  if (unit.empty() || unit == "B") return 0;
  if (unit == "K" || unit == "KB" || unit == "KIB") return 10;
  if (unit == "M" || unit == "MB" || unit == "MIB") return 20;
  if (unit == "G" || unit == "GB" || unit == "GIB") return 30;
  if (unit == "T" || unit == "TB" || unit == "TIB") return 40;
  return -1;
}

// "unknown unit", or for Mb-style units that they are bits.
std::string bits_hint(std::string_view unit) {
  if (is_bit_unit(unit))
    return fmt::format("unknown unit: {} is {}bits; write {}B or {}", unit,
                       unit[0] == 'K' ? "kilo" : unit[0] == 'M' ? "mega" : unit[0] == 'G' ? "giga" : "", unit[0], unit[0]);
  return "unknown unit";
}

}  // namespace

std::vector<std::string_view> split_list(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto pos = text.find(sep);
    out.push_back(text.substr(0, pos));
    if (pos == std::string_view::npos) break;
    text.remove_prefix(pos + 1);
  }
  return out;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::uint64_t parse_size(std::string_view text) {
  const auto bad = [&](std::string_view why) {
    return InputError(fmt::format("bad size '{}': {} (use bytes per thread such as 4096, 64K, 16M, 1G)", text, why));
  };
  std::string_view s = trim_spaces(text);
  std::uint64_t value = 0;
  const char* const end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, value);
  if (ec == std::errc::result_out_of_range) throw bad("too large");
  if (!s.empty() && s.front() == '-') throw bad("a size cannot be negative");
  if (p == s.data() || ec != std::errc()) throw bad("not a number");
  // A fraction ("1.5G"): its digits, trailing zeros dropped, as numerator / 10^digits.
  std::string_view fraction;
  if (p != end && *p == '.') {
    const char* q = p + 1;
    while (q != end && std::isdigit(static_cast<unsigned char>(*q))) ++q;
    fraction = std::string_view(p + 1, static_cast<std::size_t>(q - p - 1));
    if (fraction.empty()) throw bad("no digits after the point");
    p = q;
    while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  }
  const std::string_view unit(p, static_cast<std::size_t>(end - p));
  const int shift = size_unit_shift(unit);
  // "1 GiB" quoted as one argument: the unit is known, the space is not.
  if (shift < 0 && !unit.empty() && unit.front() == ' ' && size_unit_shift(trim_spaces(unit)) >= 0)
    throw bad(fmt::format("a space between the number and its unit; write them as one word, {}{}",
                          std::string_view(s.data(), static_cast<std::size_t>(unit.data() - s.data())), trim_spaces(unit)));
  if (shift < 0) throw bad(bits_hint(unit));
  if (value == 0 && fraction.empty()) throw bad("the smallest size is one page, 4K");  // what parse_sizes requires
  if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) throw bad("too large");
  std::uint64_t bytes = value << shift;
  if (!fraction.empty()) {
    // numerator x 2^shift / 10^k is whole when 5^k divides the numerator and the quotient's
    // remaining 2^(k - shift) (if k > shift) divides too.
    const auto not_whole = [&] { return bad("not a whole number of bytes"); };
    const std::size_t k = fraction.size();
    std::uint64_t numerator = 0;
    const auto [fp, fec] = std::from_chars(fraction.data(), fraction.data() + k, numerator);
    if (fec != std::errc() || k > 27) throw not_whole();  // 5^27 is the largest power of 5 in 64 bits
    std::uint64_t five_k = 1;
    for (std::size_t i = 0; i < k; ++i) five_k *= 5;
    if (numerator % five_k != 0) throw not_whole();
    std::uint64_t part = numerator / five_k;
    const int two_k = static_cast<int>(k);
    if (two_k > shift) {
      if (part % (std::uint64_t{1} << (two_k - shift)) != 0) throw not_whole();
      part >>= two_k - shift;
    } else {
      part <<= shift - two_k;  // part < 2^k, so part x 2^(shift - k) < 2^shift
    }
    if (bytes > std::numeric_limits<std::uint64_t>::max() - part) throw bad("too large");
    bytes += part;
  }
  return bytes;
}

std::uint64_t parse_cache_size(std::string_view text, std::string_view option) {
  const std::string_view s = trim_spaces(text);
  const auto bad = [&](std::string_view why) {
    return InputError(fmt::format("bad {} '{}': {} (give a cache size such as 24.75M, 32MiB or 512K)", option, s, why));
  };
  double value = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::fixed);
  if (!s.empty() && s.front() == '-') throw bad("a size cannot be negative");
  if (p == s.data() || ec != std::errc()) throw bad("not a number");
  const std::string_view unit(p, static_cast<std::size_t>(s.data() + s.size() - p));
  if (unit.empty() && !(value > 0)) throw bad("no cache of 0 bytes");  // "did you mean 0M?" would be refused next
  if (unit.empty()) throw InputError(fmt::format("{} {}: no unit; did you mean {}M?", option, s, s));
  const int shift = size_unit_shift(unit);
  // "24.75 MiB" quoted as one argument: the unit is known, the space is not (as parse_size says).
  if (shift < 0 && unit.front() == ' ' && size_unit_shift(trim_spaces(unit)) > 0)
    throw bad(fmt::format("a space between the number and its unit; write them as one word, {}{}",
                          std::string_view(s.data(), static_cast<std::size_t>(unit.data() - s.data())), trim_spaces(unit)));
  if (shift <= 0 || shift > 30) throw bad(bits_hint(unit));
  const double bytes = std::ldexp(value, shift);
  if (!(bytes >= 1)) throw bad("below one byte");
  if (bytes > 1e12) throw bad("too large");
  return static_cast<std::uint64_t>(std::llround(bytes));
}

namespace {

// A per-thread buffer below one page measures call overhead, not bandwidth: most often a size
// typed without its unit ("64" for 64M).
std::uint64_t parse_buffer_size(std::string_view item) {
  constexpr std::uint64_t kPage = 4096;
  const std::uint64_t v = parse_size(item);
  if (v >= kPage) return v;
  const std::string_view t = trim_spaces(item);
  const bool bare = std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  throw InputError(fmt::format("--sizes {}: {} bytes is below one page (4 KiB); {}", t, v,
                               bare ? fmt::format("did you mean {}M?", t) : std::string("use at least 4K")));
}

}  // namespace

namespace {

// The items of a user's comma list; an empty one ("stosb," or "16M,,1G") is named as such: it
// read "unknown kernel ''" or "bad size ''".
std::vector<std::string_view> list_items(std::string_view text, const char* what) {
  std::vector<std::string_view> items = split_list(text);
  if (items.size() > 1)
    for (const std::string_view item : items)
      if (trim_spaces(item).empty())
        throw InputError(fmt::format("{} '{}' has an empty item (a stray comma?)", what, text));
  return items;
}

}  // namespace

std::optional<std::pair<std::string_view, std::string_view>> range_ends(std::string_view item, std::string_view what,
                                                                        std::string_view example) {
  item = trim_spaces(item);
  const auto dots = item.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  const std::string_view lo = trim_spaces(item.substr(0, dots)), hi = trim_spaces(item.substr(dots + 2));
  if (lo.empty() || hi.empty() || hi.front() == '.' || hi.find("..") != std::string_view::npos)
    throw InputError(fmt::format("bad {} range '{}': give a start and an end joined by two dots, e.g. {}", what, item,
                                 example));
  return std::pair{lo, hi};
}

std::vector<std::uint64_t> parse_sizes(std::string_view text) {
  std::vector<std::uint64_t> out;
  for (std::string_view item : list_items(text, "size list")) {
    item = trim_spaces(item);
    const auto ends = range_ends(item, "size", "2M..1G");
    if (!ends) {
      push_unique(out, parse_buffer_size(item));
      continue;
    }
    const std::uint64_t lo = parse_buffer_size(ends->first), hi = parse_size(ends->second);
    if (hi < lo) throw InputError(fmt::format("bad size range '{}': the end is below the start", item));
    for (std::uint64_t s = lo; s <= hi; s *= 2) {
      push_unique(out, s);
      if (s > hi / 2) break;
    }
    push_unique(out, hi);  // an end off the doubling steps is measured too: 1M..3M is 1M, 2M, 3M
  }
  return out;
}

std::vector<int> parse_threads(std::string_view text, int max, std::string_view allowed, std::string_view limited_by) {
  const auto number = [&](std::string_view s) {
    s = trim_spaces(s);
    if (lower_case(s) == "max") return max;  // "MAX" and "Max" too
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range && p == s.data() + s.size())
      throw InputError(fmt::format("bad thread count '{}': too large", s));
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
      throw InputError(fmt::format("bad thread count '{}': use numbers, ranges and max, e.g. 1,2,4 or 1..max", s));
    if (v < 1) throw InputError(fmt::format("bad thread count '{}': at least 1 thread", s));
    return v;
  };
  const auto within = [&](int v) {
    if (v <= max) return v;
    const std::string pus = count_of(max, "PU");
    if (!limited_by.empty()) throw InputError(fmt::format("{} asked for, but {} has only {}", count_of(v, "thread"), limited_by, pus));
    throw InputError(fmt::format("{} asked for, but this process may use only {}{}", count_of(v, "thread"), pus,
                                 allowed.empty() ? std::string() : fmt::format(" ({}: see taskset/cpuset)", allowed)));
  };
  std::vector<int> out;
  for (std::string_view item : list_items(text, "thread list")) {
    const auto ends = range_ends(item, "thread", "1..max");
    if (!ends) {
      push_unique(out, within(number(item)));
      continue;
    }
    const int lo = number(ends->first), hi = number(ends->second);
    // "3..max" with 2 PUs: the start is too many, not the range backwards.
    if (hi < lo && lower_case(ends->second) == "max") within(lo);
    if (hi < lo) throw InputError(fmt::format("bad thread range '{}': the end is below the start", trim_spaces(item)));
    for (int t = within(lo); t <= within(hi); ++t) push_unique(out, t);
  }
  return out;
}

std::vector<std::string> parse_kernels(std::string_view text, const CpuFeatures& cpu, std::string_view machine) {
  std::vector<std::string> out;
  if (lower_case(trim_spaces(text)) == "all") {
    for (const KernelInfo& k : kernel_table())
      if (kernel_availability(k, cpu).available) out.emplace_back(k.name);
    return out;
  }
  for (std::string_view item : list_items(text, "kernel list")) {
    item = trim_spaces(item);
    const KernelInfo* k = find_kernel(lower_case(item));  // "STOSB" is stosb, as --fill ZERO is zero
    // "all,stosb": all is the whole list, never one name among others.
    if (!k && lower_case(item) == "all")
      throw InputError(fmt::format("kernel list '{}': all stands alone (every kernel {} runs); name kernels, or "
                                   "give all by itself",
                                   trim_spaces(text), machine.empty() ? "this CPU" : "that machine"));
    if (!k) {
      std::vector<std::string> names{"all"};
      for (const KernelInfo& info : kernel_table()) names.emplace_back(info.name);
      const std::string near = nearest_name(item, names);
      if (!near.empty()) throw InputError(fmt::format("unknown kernel '{}'; did you mean {}?", item, near));
      throw InputError(fmt::format("unknown kernel '{}'; kernels are: {}, or all", item, kernel_names()));
    }
    const Availability a = kernel_availability(*k, cpu, machine.empty() ? "this CPU" : "that machine");
    if (!a.available) {
      if (!machine.empty())
        throw InputError(fmt::format("kernel {} is not available on machine {}: {}", k->name, machine, a.reason));
      throw InputError(fmt::format("kernel {} is not available on this CPU: {} (bwlab list shows what runs here)",
                                   k->name, a.reason));
    }
    push_unique(out, std::string(k->name));
  }
  return out;
}

std::string kernels_all_unavailable(std::string_view kernels_text, const CpuFeatures& cpu, std::string_view machine) {
  if (lower_case(trim_spaces(kernels_text)) != "all") return {};
  std::vector<std::string> lacking;
  for (const KernelInfo& k : kernel_table())
    if (const Availability a = kernel_availability(k, cpu, "that machine"); !a.available)
      lacking.push_back(fmt::format("{} ({})", k.name, a.reason));
  if (lacking.empty()) return {};
  return fmt::format("--kernels all leaves out what machine {} cannot run: {}", machine, fmt::join(lacking, "; "));
}

std::string drop_zero_only_kernels(std::vector<std::string>& kernels, std::string_view kernels_text,
                                   const std::vector<Fill>& fills) {
  if (lower_case(trim_spaces(kernels_text)) != "all") return {};
  const auto other = std::find_if(fills.begin(), fills.end(), [](const Fill& f) { return !f.zero_only(); });
  if (other == fills.end()) return {};
  std::vector<std::string> dropped;
  std::erase_if(kernels, [&](const std::string& name) {
    const KernelInfo* k = find_kernel(name);
    if (!k || !k->zero_only) return false;
    dropped.push_back(name);
    return true;
  });
  if (dropped.empty()) return {};
  // Every kernel runs every fill: the kernel is left out of the whole run, its zero rows too (the
  // note read as if only the --fill 0xff rows lost it).
  std::vector<std::string> labels;
  for (const Fill& f : fills) labels.push_back(f.label());
  return fmt::format("--kernels all leaves {} out of this run: {} only zeros, and every kernel runs every fill ({}); "
                     "measure {} with --fill zero",
                     fmt::join(dropped, ", "), dropped.size() == 1 ? "it writes" : "they write", fmt::join(labels, ","),
                     dropped.size() == 1 ? "it" : "them");
}

RepsSetting parse_reps(std::string_view text) {
  text = trim_spaces(text);
  if (lower_case(text) == "auto") return {3, true};
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size())
    throw InputError(fmt::format("bad --reps '{}': use a count such as 5, or auto", text));
  if (v < 1) throw InputError("--reps must be at least 1");
  return {v, false};
}

std::vector<Fill> parse_fills(std::string_view text) {
  std::vector<Fill> out;
  for (std::string_view item : list_items(text, "fill list")) push_unique(out, parse_fill(trim_spaces(item)));
  return out;
}

}  // namespace bwlab
