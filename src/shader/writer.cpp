// How each shading language spells what the emitter writes (shader/writer.hpp).
#include "shader/writer.hpp"

#include <cctype>
#include <cstdio>

namespace perlin::detail {

std::string shader_writer::real() const {
  if (wgsl()) return "f32";
  return dbl_ ? "double" : "float";
}

std::string shader_writer::vec(std::size_t n) const {
  if (n == 1) return real();
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
  if (dbl_) s += "LF";
  return s;
}

std::string shader_writer::to_real(const std::string& expr) const {
  return real() + "(" + expr + ")";
}

std::string shader_writer::to_int(const std::string& expr) const {
  return integer() + "(" + expr + ")";
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
  return type + " " + name + "[" + std::to_string(n) + "] = " + init + ";";
}

std::string shader_writer::array4(const std::string& type, const std::string& body) const {
  if (wgsl()) return array_type(type, 4) + "(" + body + ")";
  return hlsl() ? "{" + body + "}" : type + "[4](" + body + ")";
}

std::string shader_writer::loop(const std::string& k, const std::string& bound,
                                const std::string& from) const {
  if (wgsl()) return "for (var " + k + " = " + from + "; " + k + " < " + bound + "; " + k + "++) {";
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
  return result + " " + name + "(" + list + ") {";
}

std::string shader_writer::const_array(const std::string& type, const std::string& name,
                                       std::size_t n, const std::string& body) const {
  const std::string size = std::to_string(n);
  if (wgsl()) return "const " + name + " = " + array_type(type, n) + "(" + body + ");";
  if (hlsl()) return "static const " + type + " " + name + "[" + size + "] = {" + body + "};";
  return "const " + type + " " + name + "[" + size + "] = " + type + "[" + size + "](" + body +
         ");";
}

void shader_writer::function_of_t(const std::string& name, const std::string& expr) {
  const std::string T = real();
  line(function(T, name, {{T, "t"}}) + "\n  " + decl(T, "r", expr, true) + "\n  return r;\n}");
}

}  // namespace perlin::detail
