// How each shading language spells what the emitter writes (shader/writer.hpp).
#include "shader/writer.hpp"

#include <cctype>
#include <cstdio>
#include <regex>

namespace perlin::detail {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

/// `body` with each whole-word `v` replaced by `(value)`.
std::string substitute(const std::string& body, const std::string& v, std::size_t value) {
  std::string r;
  const std::string by = "(" + std::to_string(value) + ")";
  for (std::size_t i = 0; i < body.size();) {
    const bool word = body.compare(i, v.size(), v) == 0 &&
                      (i == 0 || (!ident_char(body[i - 1]) && body[i - 1] != '.')) &&
                      (i + v.size() == body.size() || !ident_char(body[i + v.size()]));
    if (word) {
      r += by;
      i += v.size();
    } else {
      r += body[i++];
    }
  }
  return r;
}

/// JavaScript: each loop `for (let k = A; k < B; ++k)` with whole-number bounds written out, one
/// block `{ ... }` per k with k's value in place (the same statements in the same order), from the
/// last loop back (the last is innermost), where the copies stay small. V8 runs straight-line
/// code over constant indices faster than the loop.
std::string unroll_loops(std::string s) {
  static const std::regex head(R"(for \(let ([a-z0-9_]+) = (\d+); \1 < (\d+); \+\+\1\) )");
  std::size_t limit = s.size();
  for (;;) {
    std::smatch last;
    bool found = false;
    const std::string before = s.substr(0, limit);
    for (auto it = std::sregex_iterator(before.begin(), before.end(), head);
         it != std::sregex_iterator(); ++it) {
      last = *it;
      found = true;
    }
    if (!found) return s;
    const auto start = static_cast<std::size_t>(last.position(0));
    const std::size_t open = start + static_cast<std::size_t>(last.length(0));
    limit = start;
    const std::string v = last[1].str();
    const std::size_t from = std::stoul(last[2].str()), bound = std::stoul(last[3].str());
    std::size_t end = 0;  // one past the loop's last character
    std::string body;
    if (s[open] == '{') {
      int depth = 0;
      for (std::size_t j = open; j < s.size(); ++j) {
        depth += s[j] == '{' ? 1 : s[j] == '}' ? -1 : 0;
        if (depth == 0) {
          end = j + 1;
          break;
        }
      }
      if (end == 0) return s;
      body = s.substr(open + 1, end - open - 2);
    } else {
      end = s.find(';', open);
      if (end == std::string::npos || s.compare(open, 4, "for ") == 0) continue;
      body = s.substr(open, ++end - open);
    }
    if (bound <= from || (bound - from) * body.size() > 6000) continue;
    std::string copies;
    for (std::size_t k = from; k < bound; ++k) copies += "{" + substitute(body, v, k) + "}";
    s = s.substr(0, start) + copies + s.substr(end);
  }
}

}  // namespace

std::string shader_writer::real() const {
  if (wgsl()) return "f32";
  return dbl_ ? "double" : "float";
}

std::string shader_writer::vec(std::size_t n) const {
  if (n == 1) return real();
  if (js()) return "vec" + std::to_string(n);  // a parameter list of n numbers (param)
  if (wgsl()) return "vec" + std::to_string(n) + "<f32>";
  if (hlsl()) return real() + std::to_string(n);
  return (dbl_ ? "dvec" : "vec") + std::to_string(n);
}

std::string shader_writer::ivec(std::size_t n) const {
  if (n == 1) return integer();
  if (wgsl()) return "vec" + std::to_string(n) + "<i32>";
  return (hlsl() ? "int" : "ivec") + std::to_string(n);
}

std::string shader_writer::lit(double v) const {
  char buf[40];
  if (dbl_) {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  } else if (wgsl()) {
    // WGSL reads a literal as an abstract (64-bit) float and then converts it to f32, rounding
    // either way where it is not exact: 17 digits make the float's exact value.
    std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(static_cast<float>(v)));
  } else {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(static_cast<float>(v)));
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  if (dbl_ && !js()) s += "LF";
  return s;
}

std::string shader_writer::to_real(const std::string& expr) const {
  if (js()) return "(" + expr + ")";
  return real() + "(" + expr + ")";
}

std::string shader_writer::to_int(const std::string& expr) const {
  // JavaScript's | 0 keeps the integer modulo 2^32 (exact for any finite double; NaN and the
  // infinities give 0): the low bits a mask reads are the library's 64-bit index's.
  if (js()) return "(" + expr + " | 0)";
  return integer() + "(" + expr + ")";
}

std::string shader_writer::component(const std::string& v, std::size_t k) const {
  static const char* const comp[4] = {"x", "y", "z", "w"};
  return v + (js() ? "_" : ".") + comp[k];
}

std::string shader_writer::floor_mod(const std::string& int_mod, const std::string& fl,
                                     const std::string& P) const {
  return js() ? "perlin_mod(" + fl + ", " + P + ")" : int_mod;
}

std::string shader_writer::scratch(const std::string& type, std::size_t n) const {
  std::string name = "perlin_s" + std::to_string(scratch_n_++);
  scratch_ += "const " + name + " = new " + (type == integer() ? "Int32Array(" : "Float64Array(") +
              std::to_string(n) + ");\n";
  return name;
}

std::string shader_writer::text() const {
  if (!js()) return out_;
  // GLSL's floor, abs and sign are Math's; clamp(x, a, b) as the library's std::clamp; perlin_mod
  // the floor's residue modulo P in [0, P) (% of doubles is exact).
  return unroll_loops(out_) + scratch_ +
         "const floor = Math.floor, abs = Math.abs, sign = Math.sign;\n"
         "function clamp(x, a, b) { return x < a ? a : b < x ? b : x; }\n"
         "function perlin_mod(x, P) { const r = x % P; return r < 0 ? r + P : r; }\n";
}

std::string shader_writer::choose(const std::string& cond, const std::string& a,
                                  const std::string& b) const {
  if (wgsl()) return "select(" + b + ", " + a + ", " + cond + ")";
  return cond + " ? " + a + " : " + b;
}

std::string shader_writer::shift(const std::string& amount) const {
  if (!wgsl()) return amount;
  bool literal = !amount.empty();
  for (const char c : amount) literal = literal && std::isdigit(static_cast<unsigned char>(c));
  return literal ? amount + "u" : "u32(" + amount + ")";
}

std::string shader_writer::deref(const std::string& param) const {
  return wgsl() ? "(*" + param + ")" : param;
}

std::string shader_writer::ref(const std::string& local) const {
  return wgsl() ? "&" + local : local;
}

std::string shader_writer::decl(const std::string& type, const std::string& name,
                                const std::string& init, bool exact) const {
  const std::string value = init.empty() ? std::string() : " = " + init;
  if (js()) return "let " + name + value + ";";
  if (wgsl()) return "var " + name + ": " + type + value + ";";
  // GLSL ES 3.00 has no `precise`.
  return (exact && !es() ? "precise " : "") + type + " " + name + value + ";";
}

std::string shader_writer::array_type(const std::string& type, std::size_t n) const {
  return "array<" + type + ", " + std::to_string(n) + ">";
}

std::string shader_writer::arrays(const std::string& type, const std::vector<std::string>& names,
                                  std::size_t n) const {
  std::string s;
  const std::string size = std::to_string(n);
  if (js()) {
    for (std::size_t i = 0; i < names.size(); ++i)
      s += (i != 0 ? " const " : "const ") + names[i] + " = " + scratch(type, n) + ";";
    return s;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "a" + string&&.
    if (wgsl()) {
      if (i != 0) s += ' ';
      s += decl(array_type(type, n), names[i], "");
    } else {
      s += i != 0 ? ", " : type + " ";
      s += names[i];
      s += '[';
      s += size;
      s += ']';
    }
  }
  return wgsl() ? s : s + ";";
}

std::string shader_writer::array(const std::string& type, const std::string& name, std::size_t n,
                                 const std::string& init) const {
  if (wgsl()) return decl(array_type(type, n), name, init);
  if (js()) {  // init is array4's list "a, b, c, d": element by element into the scratch array
    std::string s = "const " + name + " = " + scratch(type, n) + ";";
    std::size_t k = 0, at = 0;
    while (at <= init.size()) {
      std::size_t end = init.find(", ", at);
      if (end == std::string::npos) end = init.size();
      s += " " + name + "[" + std::to_string(k++) + "] = " + init.substr(at, end - at) + ";";
      at = end + 2;
    }
    return s;
  }
  return type + " " + name + "[" + std::to_string(n) + "] = " + init + ";";
}

std::string shader_writer::array4(const std::string& type, const std::string& body) const {
  if (wgsl()) return array_type(type, 4) + "(" + body + ")";
  if (js()) return body;  // array() stores it element by element
  return hlsl() ? "{" + body + "}" : type + "[4](" + body + ")";
}

std::string shader_writer::loop(const std::string& k, const std::string& bound,
                                const std::string& from) const {
  if (wgsl()) return "for (var " + k + " = " + from + "; " + k + " < " + bound + "; " + k + "++) {";
  if (js()) return "for (let " + k + " = " + from + "; " + k + " < " + bound + "; ++" + k + ") {";
  return "for (int " + k + " = " + from + "; " + k + " < " + bound + "; ++" + k + ") {";
}

std::string shader_writer::loop_over(const std::string& k, const std::string& bound,
                                     const std::string& from, const std::string& body) const {
  if (wgsl()) {  // WGSL's loops need braces
    return loop(k, bound, from) + (!body.empty() && body.front() == '\n' ? "" : " ") + body + " }";
  }
  std::string head = loop(k, bound, from);
  head.pop_back();  // the brace, then the space before it where the body starts a new line
  if (!body.empty() && body.front() == '\n') head.pop_back();
  return head + body;
}

std::string shader_writer::param(const shader_param& p) const {
  if (js()) {  // a vector: its components, one number each (vec); arrays pass by reference
    if (p.n != 0 || p.type.rfind("vec", 0) != 0) return p.name;
    std::string s;
    for (std::size_t k = 0; k < static_cast<std::size_t>(p.type.back() - '0'); ++k)
      s += (k != 0 ? ", " : "") + component(p.name, k);
    return s;
  }
  if (wgsl()) {
    const std::string t = p.n != 0 ? array_type(p.type, p.n) : p.type;
    return p.name + ": " + (p.out ? "ptr<function, " + t + ">" : t);
  }
  std::string s = p.out ? "out " : "";
  s += p.type;
  s += ' ';
  s += p.name;
  if (p.n != 0) {
    s += '[';
    s += std::to_string(p.n);
    s += ']';
  }
  return s;
}

std::string shader_writer::function(const std::string& result, const std::string& name,
                                    const std::vector<shader_param>& params) const {
  std::string list;
  for (std::size_t i = 0; i < params.size(); ++i) list += (i != 0 ? ", " : "") + param(params[i]);
  if (wgsl()) return "fn " + name + "(" + list + ") -> " + result + " {";
  if (js()) return "function " + name + "(" + list + ") {";
  return result + " " + name + "(" + list + ") {";
}

std::string shader_writer::const_array(const std::string& type, const std::string& name,
                                       std::size_t n, const std::string& body) const {
  const std::string size = std::to_string(n);
  if (wgsl()) return "const " + name + " = " + array_type(type, n) + "(" + body + ");";
  if (js()) {
    return "const " + name + " = new " + (type == integer() ? "Int32Array" : "Float64Array") +
           "([" + body + "]);";
  }
  if (hlsl()) return "static const " + type + " " + name + "[" + size + "] = {" + body + "};";
  return "const " + type + " " + name + "[" + size + "] = " + type + "[" + size + "](" + body +
         ");";
}

void shader_writer::function_of_t(const std::string& name, const std::string& expr) {
  const std::string T = real();
  line(function(T, name, {{T, "t"}}) + "\n  " + decl(T, "r", expr, true) + "\n  return r;\n}");
}

}  // namespace perlin::detail
