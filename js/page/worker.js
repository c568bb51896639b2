// The static preview page's Web Worker: the renderer (perlin_page.js: perlin serve's query
// parser, render pipeline and stats, compiled to WebAssembly) answers each query, and the files
// are written here: PNG (8 or 16 bit, grey or RGB; stored deflate blocks, so the pixels are the
// CLI's exactly) and .npy (float32). Messages: {query, ext} -> {bytes, stats} or {error}; ext
// ".shader": {stats} holding the GPU mode's program and geometry (perlin serve's /shader.json).
import createPerlinPage from "./perlin_page.js";

const ready = createPerlinPage();

/** The query's pairs, decoded as a server decodes them, as "name\0value\0..." bytes. */
function pairsOf(query) {
  let text = "";
  for (const [k, v] of new URLSearchParams(query)) text += k + "\0" + v + "\0";
  return new TextEncoder().encode(text);
}

const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes, start, end) {
  let c = 0xffffffff;
  for (let i = start; i < end; ++i) c = crcTable[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG of the pixels (16-bit samples in the module's little-endian order), rows unfiltered,
 * in stored deflate blocks: larger than the CLI's file, the same pixels. */
function pngFile(pixels, width, height, channels, bits) {
  const rowBytes = width * channels * (bits / 8);
  const raw = new Uint8Array((rowBytes + 1) * height);
  for (let j = 0; j < height; ++j) {
    const row = raw.subarray(j * (rowBytes + 1) + 1, (j + 1) * (rowBytes + 1));
    row.set(pixels.subarray(j * rowBytes, (j + 1) * rowBytes));
    if (bits === 16) for (let i = 0; i < rowBytes; i += 2) [row[i], row[i + 1]] = [row[i + 1], row[i]];
  }
  const blocks = Math.max(1, Math.ceil(raw.length / 65535));
  const zlib = new Uint8Array(2 + raw.length + 5 * blocks + 4);
  zlib[0] = 0x78;
  zlib[1] = 0x01;
  let at = 2;
  for (let b = 0; b < blocks; ++b) {
    const from = b * 65535, n = Math.min(65535, raw.length - from);
    zlib[at++] = b === blocks - 1 ? 1 : 0;
    zlib[at++] = n & 255;
    zlib[at++] = n >>> 8;
    zlib[at++] = ~n & 255;
    zlib[at++] = (~n >>> 8) & 255;
    zlib.set(raw.subarray(from, from + n), at);
    at += n;
  }
  let a = 1, s = 0;
  for (let i = 0; i < raw.length; ++i) {
    a = (a + raw[i]) % 65521;
    s = (s + a) % 65521;
  }
  new DataView(zlib.buffer).setUint32(at, ((s << 16) | a) >>> 0);
  const chunk = (type, data) => {
    const c = new Uint8Array(12 + data.length);
    const v = new DataView(c.buffer);
    v.setUint32(0, data.length);
    for (let i = 0; i < 4; ++i) c[4 + i] = type.charCodeAt(i);
    c.set(data, 8);
    v.setUint32(8 + data.length, crc32(c, 4, 8 + data.length));
    return c;
  };
  const ihdr = new Uint8Array(13);
  const h = new DataView(ihdr.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  ihdr[8] = bits;
  ihdr[9] = channels === 3 ? 2 : 0;
  const parts = [Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10), chunk("IHDR", ihdr),
                 chunk("IDAT", zlib), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A .npy (version 1.0) of height x width float32 values, header as perlin render writes it. */
function npyFile(values, width, height) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${height}, ${width}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += " ";
  header += "\n";
  const out = new Uint8Array(10 + header.length + values.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; ++i) out[10 + i] = header.charCodeAt(i);
  out.set(values, 10 + header.length);
  return out;
}

onmessage = async (e) => {
  const m = await ready;
  const { query, ext } = e.data;
  const pairs = pairsOf(query);
  const p = m._malloc(Math.max(1, pairs.length));
  m.HEAPU8.set(pairs, p);
  const status = ext === ".shader" ? m._perlin_page_shader(p, pairs.length)
                                   : m._perlin_page_render(p, pairs.length, ext === ".npy" ? 1 : 0);
  m._free(p);
  if (status !== 0) {
    postMessage({ error: m.UTF8ToString(m._perlin_page_error()), status });
    return;
  }
  if (ext === ".shader") {  // the GPU mode's program and geometry, as perlin serve's /shader.json
    postMessage({ stats: m.UTF8ToString(m._perlin_page_stats()) });
    return;
  }
  // Pointers and sizes come back as signed 32-bit numbers; the page module may grow past 2 GiB,
  // so they are read as unsigned (>>> 0), or a large export would read the wrong bytes.
  const at = m._perlin_page_data() >>> 0;
  const data = m.HEAPU8.subarray(at, at + (m._perlin_page_size() >>> 0));
  const width = m._perlin_page_width(), height = m._perlin_page_height();
  const bytes = ext === ".npy" ? npyFile(data, width, height)
                               : pngFile(data, width, height, m._perlin_page_channels(), m._perlin_page_bits());
  postMessage({ bytes, stats: m.UTF8ToString(m._perlin_page_stats()) }, [bytes.buffer]);
};
