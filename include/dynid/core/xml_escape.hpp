#pragma once
// Text and attribute values for the XML dynid writes (MJCF scenes, HTML reports).

#include <string>

namespace dynid {

/// `text` with & < > " ' replaced by their entities: safe in element text and in quoted attributes.
std::string xml_escape(const std::string& text);

}  // namespace dynid
