#pragma once
// Outputs that name a lab trial as the user gave it. A C3D or TRC trial given where a data set is
// expected is imported into a temporary data set (mocap/c3d_import.hpp, DatasetOrMocapFile); the
// pipelines read that, and their summaries would name it. The commands and the Python calls pass a
// map back to the user's file names (DatasetOrMocapFile::in_user_terms), applied to every string of
// a summary.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace dynid {

/// text -> the same text with temporary paths replaced by the user's (empty: as is).
using UserTerms = std::function<std::string(const std::string&)>;

/// Every string in `value` (recursively) through `terms`; nothing when `terms` is empty.
inline void apply_user_terms(nlohmann::json& value, const UserTerms& terms) {
  if (!terms) return;
  if (value.is_string()) value = terms(value.get<std::string>());
  if (value.is_structured())
    for (nlohmann::json& child : value) apply_user_terms(child, terms);
}

}  // namespace dynid
