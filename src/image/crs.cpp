// parse_crs (tiff_writer.hpp): "EPSG:N" looked up in PROJ's database, so that a GeoTIFF names a
// system that exists, with the right model type (geographic or projected).
#include <proj.h>

#include <memory>
#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/tiff_writer.hpp"

namespace perlin {

namespace {

/// PROJ reports through a logger that prints by default: silenced.
void proj_quiet(void*, int, const char*) {}

struct context_deleter {
  void operator()(PJ_CONTEXT* c) const noexcept { proj_context_destroy(c); }
};
struct object_deleter {
  void operator()(PJ* p) const noexcept { proj_destroy(p); }
};

}  // namespace

crs parse_crs(const std::string& text, const char* option) {
  const auto bad = [&](const std::string& why) -> crs {
    detail::throw_invalid(option, "'" + text.substr(0, 64) + "' " + why);
  };
  const int code = epsg_code(text);
  if (code == 0)
    return bad("is not EPSG:N with N from 1 to 65535 (such as EPSG:4326 or EPSG:32633)");
  const std::unique_ptr<PJ_CONTEXT, context_deleter> ctx(proj_context_create());
  if (!ctx) detail::throw_io("PROJ: cannot start");
  proj_log_func(ctx.get(), nullptr, proj_quiet);
  // Without its database PROJ knows no code: a broken installation, not a bad --crs (exit 1).
  if (proj_context_get_database_path(ctx.get()) == nullptr) {
    detail::throw_io(
        "PROJ cannot open its database proj.db, so no EPSG code can be looked up: install "
        "Debian's proj-data, or set PROJ_DATA to the folder that holds proj.db");
  }
  const std::string id = std::to_string(code);
  const std::unique_ptr<PJ, object_deleter> obj(
      proj_create_from_database(ctx.get(), "EPSG", id.c_str(), PJ_CATEGORY_CRS, 0, nullptr));
  if (!obj) return bad("is not a coordinate reference system in PROJ's EPSG database");
  crs out;
  out.epsg = code;
  switch (proj_get_type(obj.get())) {
    case PJ_TYPE_GEOGRAPHIC_2D_CRS:
      out.geographic = true;
      break;
    case PJ_TYPE_PROJECTED_CRS:
      out.geographic = false;
      break;
    default:
      return bad("is neither a geographic 2-D nor a projected system (GeoTIFF's two models)");
  }
  const char* name = proj_get_name(obj.get());
  out.name = name != nullptr ? name : "EPSG:" + id;
  return out;
}

}  // namespace perlin
