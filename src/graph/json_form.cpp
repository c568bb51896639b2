// The JSON form of a graph (docs/graphs.md), read by a small strict reader (RFC 8259: objects,
// arrays, strings with their escapes, numbers, true, false, null; nothing else, no duplicate
// keys) and written canonically:
//
//   {"perlin": 2, "nodes": {
//     "m": {"node": "field", "fractal": "ridged", "octaves": 6},
//     "t": {"node": "terrace", "inputs": ["m"], "points": [-1, 0, 0.5, 1]}
//   }, "output": "t"}
//
// A parameter's JSON value becomes the text of the one-line form (a number by its literal
// text, a list joined by ",", [in, out] pairs as in:out, true/false, a string as it is, null as
// unset), which the node table's parser for its type reads: one parser per type for both forms.
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "detail/error.hpp"
#include "graph/graph_data.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

struct json_value {
  enum kind_t { null, boolean, number, string, array, object } kind = null;
  std::string text;                 // a number's literal, a string's value, "true" / "false"
  std::vector<json_value> items;    // an array's
  std::vector<std::string> keys;    // an object's keys,
  std::vector<json_value> members;  // and their values
};

[[noreturn]] void json_error(std::size_t at, const std::string& what) {
  detail::throw_invalid("json", what + " at offset " + std::to_string(at));
}

struct json_reader {
  std::string_view s;
  std::size_t i = 0;

  void space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool eat(char c) {
    space();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) json_error(i, std::string("expected '") + c + "'");
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  unsigned hex4() {
    if (i + 4 > s.size()) json_error(i, "a short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        json_error(i - 1, "a bad \\u escape");
      }
    }
    return v;
  }

  std::string string_literal() {
    space();
    if (i >= s.size() || s[i] != '"') json_error(i, "expected a string");
    ++i;
    std::string out;
    while (true) {
      if (i >= s.size()) json_error(i, "an unterminated string");
      const auto c = static_cast<unsigned char>(s[i++]);
      if (c == '"') break;
      if (c < 0x20) json_error(i - 1, "a control character in a string");
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      if (i >= s.size()) json_error(i, "an unterminated string");
      const char e = s[i++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (i + 2 > s.size() || s[i] != '\\' || s[i + 1] != 'u') {
              json_error(i, "a lone surrogate");
            }
            i += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000) json_error(i, "a lone surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            json_error(i, "a lone surrogate");
          }
          put_utf8(out, cp);
          break;
        }
        default:
          json_error(i - 1, "a bad escape");
      }
    }
    return out;
  }

  std::string number_literal() {
    const std::size_t start = i;
    const auto digit = [&] { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
    if (i < s.size() && s[i] == '-') ++i;
    if (!digit()) json_error(i, "a bad number");
    if (s[i] == '0') {
      ++i;
    } else {
      while (digit()) ++i;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (!digit()) json_error(i, "a bad number");
      while (digit()) ++i;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      if (!digit()) json_error(i, "a bad number");
      while (digit()) ++i;
    }
    return std::string(s.substr(start, i - start));
  }

  bool word(std::string_view w) {
    if (s.substr(i, w.size()) == w) {
      i += w.size();
      return true;
    }
    return false;
  }

  json_value value(int depth) {
    if (depth > 16) json_error(i, "nested too deep");
    space();
    if (i >= s.size()) json_error(i, "expected a value");
    json_value v;
    const char c = s[i];
    if (c == '{') {
      ++i;
      v.kind = json_value::object;
      if (eat('}')) return v;
      do {
        space();
        const std::size_t at = i;
        std::string key = string_literal();
        for (const auto& k : v.keys) {
          if (k == key) json_error(at, "the key " + detail::quoted(key) + " given twice");
        }
        expect(':');
        v.keys.push_back(std::move(key));
        v.members.push_back(value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++i;
      v.kind = json_value::array;
      if (eat(']')) return v;
      do {
        v.items.push_back(value(depth + 1));
      } while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = json_value::string;
      v.text = string_literal();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = json_value::number;
      v.text = number_literal();
    } else if (word("true")) {
      v.kind = json_value::boolean;
      v.text = "true";
    } else if (word("false")) {
      v.kind = json_value::boolean;
      v.text = "false";
    } else if (word("null")) {
      v.kind = json_value::null;
    } else {
      json_error(i, "expected a value");
    }
    return v;
  }
};

/// A parameter's JSON value as the one-line form's text.
std::string as_text(const json_value& v, const std::string& name) {
  const auto bad = [&] {
    detail::throw_invalid(name,
                          "must be a number, a string, true or false, null, a list of numbers "
                          "or a list of [in, out] pairs");
  };
  switch (v.kind) {
    case json_value::null:
      return {};
    case json_value::boolean:
    case json_value::number:
    case json_value::string:
      return v.text;
    case json_value::array: {
      std::string out;
      for (std::size_t k = 0; k < v.items.size(); ++k) {
        const json_value& item = v.items[k];
        if (k != 0) out += ',';
        if (item.kind == json_value::number) {
          out += item.text;
        } else if (item.kind == json_value::array && item.items.size() == 2 &&
                   item.items[0].kind == json_value::number &&
                   item.items[1].kind == json_value::number) {
          out += item.items[0].text + ":" + item.items[1].text;
        } else {
          bad();
        }
      }
      if (out.empty()) detail::throw_invalid(name, "is an empty list");
      return out;
    }
    case json_value::object:
      bad();
  }
  return {};
}

/// A field option's canonical text as JSON: a number, true/false, a string; a seed above 2^53
/// as a string (a JavaScript reader would round it as a number); periods as a number or a list.
std::string option_json(const option_info& o, const std::string& text) {
  switch (o.type) {
    case option_type::integer:
    case option_type::number:
    case option_type::flag:
      return text;
    case option_type::choice:
      return detail::json_quote(text);
    case option_type::seed:
      return text.size() < 16 ? text : detail::json_quote(text);
    case option_type::periods:
      if (text.find(',') == std::string::npos) return text;
      {
        std::string out = "[";
        for (const char c : text) out += c == ',' ? std::string(", ") : std::string(1, c);
        return out + "]";
      }
  }
  return detail::json_quote(text);
}

}  // namespace

graph graph::from_json(std::string_view text) {
  if (text.size() > 1048576) detail::throw_invalid("json", "longer than 1 MiB");
  json_reader r{text};
  const json_value root = r.value(0);
  r.space();
  if (r.i != text.size()) json_error(r.i, "text after the graph");
  if (root.kind != json_value::object) json_error(0, "a graph is a JSON object");
  const json_value* version = nullptr;
  const json_value* nodes = nullptr;
  const json_value* output = nullptr;
  for (std::size_t m = 0; m < root.keys.size(); ++m) {
    const std::string& key = root.keys[m];
    const json_value& v = root.members[m];
    if (key == "perlin") {
      version = &v;
    } else if (key == "nodes") {
      nodes = &v;
    } else if (key == "output") {
      output = &v;
    } else {
      detail::throw_invalid(
          "graph", "unknown key " + detail::quoted(key) + " (valid: perlin, nodes, output)");
    }
  }
  if (version == nullptr) {
    detail::throw_invalid("perlin", "missing: a graph's JSON starts with \"perlin\": 2");
  }
  // The number 2 in any spelling (2, 2.0, 2e0).
  if (version->kind != json_value::number || std::strtod(version->text.c_str(), nullptr) != 2.0) {
    const std::string shown = version->kind == json_value::number ? version->text : "not a number";
    detail::throw_invalid("perlin", "unknown version " + detail::quoted(shown) +
                                        " (this library reads 2 in JSON; 1 and 2 in recipes)");
  }
  if (nodes == nullptr || nodes->kind != json_value::object) {
    detail::throw_invalid("nodes", "must be an object of nodes by id");
  }
  if (output == nullptr || output->kind != json_value::string) {
    detail::throw_invalid("output", "must be the output node's id (a string)");
  }
  std::vector<graph_node> list;
  for (std::size_t m = 0; m < nodes->keys.size(); ++m) {
    const std::string& id = nodes->keys[m];
    const json_value& v = nodes->members[m];
    if (v.kind != json_value::object) {
      detail::throw_invalid(id, "must be an object {\"node\": KIND, ...}");
    }
    graph_node n;
    n.id = id;
    bool has_kind = false;
    for (std::size_t k = 0; k < v.keys.size(); ++k) {
      const std::string& key = v.keys[k];
      const json_value& p = v.members[k];
      if (key == "node") {
        if (p.kind != json_value::string) detail::throw_invalid(id, "\"node\" must be a string");
        n.kind = p.text;
        has_kind = true;
      } else if (key == "inputs") {
        if (p.kind != json_value::array) {
          detail::throw_invalid(detail::param_name(id, "in"), "must be a list of node ids");
        }
        for (const auto& item : p.items) {
          if (item.kind != json_value::string) {
            detail::throw_invalid(detail::param_name(id, "in"), "must be a list of node ids");
          }
          n.inputs.push_back(item.text);
        }
      } else {
        n.parameters.emplace_back(key, as_text(p, detail::param_name(id, key)));
      }
    }
    if (!has_kind) detail::throw_invalid(id, "has no \"node\": KIND");
    list.push_back(std::move(n));
  }
  return graph(std::move(list), output->text);
}

std::string graph::json() const {
  std::string out = "{\"perlin\": " + std::to_string(k_graph_version) + ", \"nodes\": {";
  bool first = true;
  for (const auto& n : nodes()) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += detail::json_quote(n.id) + ": {\"node\": " + detail::json_quote(n.kind);
    if (!n.inputs.empty()) {
      out += ", \"inputs\": [";
      for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        out += (i ? ", " : "") + detail::json_quote(n.inputs[i]);
      }
      out += "]";
    }
    const node_info* row = find_node_kind(n.kind);
    for (const auto& [name, text] : n.parameters) {
      out += ", " + detail::json_quote(name) + ": ";
      if (row->field_options) {
        out += option_json(option(name), text);
      } else {
        for (const auto& p : row->parameters) {
          if (p.name == name)
            out += detail::parameter_json(p, detail::parse_parameter(p, n.id, text));
        }
      }
    }
    out += "}";
  }
  return out + "\n}, \"output\": " + detail::json_quote(output()) + "}";
}

}  // namespace perlin
