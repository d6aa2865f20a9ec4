// A game's link as a QR code, drawn in the page with no library and no network: the link's
// bytes in byte mode, the smallest version (1 to 40) that holds them at error correction
// level M (15 % of the code may be lost), else L (7 %), the mask with the lowest penalty.
// The facts are the QR code standard's (ISO/IEC 18004): the block tables, the format and
// version bits, the placement; tests/test_site_share.py reads what it draws back with a
// decoder (zxing-cpp).
//
// window.getawayQR.encode(text) -> {size, dark(x, y), version, level}, or null if too long;
// window.getawayQR.draw(canvas, text, scale) draws it with a quiet zone of 4 modules.
"use strict";

(() => {
  // Per level (index 0: L, 1: M) and version (index 1-40): error correction codewords per
  // block, and the number of blocks.
  const ECC_PER_BLOCK = [
    [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30,
      30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28,
      28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  ];
  const BLOCKS = [
    [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18,
      19, 19, 20, 21, 22, 24, 25],
    [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31,
      33, 35, 37, 38, 40, 43, 45, 47, 49],
  ];
  const LEVEL_BITS = [1, 0]; // the format's two bits for L and M
  const LEVEL_NAMES = ["L", "M"];

  // The modules a version has for data and error correction (all but the patterns and the
  // format and version areas).
  function rawModules(v) {
    let n = (16 * v + 128) * v + 64;
    if (v >= 2) {
      const align = Math.floor(v / 7) + 2;
      n -= (25 * align - 10) * align - 55;
      if (v >= 7) n -= 36;
    }
    return n;
  }

  const dataCodewords = (v, level) => Math.floor(rawModules(v) / 8) - ECC_PER_BLOCK[level][v] * BLOCKS[level][v];

  // The centres of the alignment patterns along one side.
  function alignments(v) {
    if (v === 1) return [];
    const count = Math.floor(v / 7) + 2;
    const step = v === 32 ? 26 : Math.ceil((v * 4 + 4) / (count * 2 - 2)) * 2;
    const out = [6];
    for (let p = v * 4 + 10; out.length < count; p -= step) out.splice(1, 0, p);
    return out;
  }

  // ---- Reed-Solomon over GF(256), the field of x^8 + x^4 + x^3 + x^2 + 1 -------------------
  function times(a, b) {
    let r = 0;
    for (let i = 7; i >= 0; i--) {
      r = (r << 1) ^ ((r >>> 7) * 0x11d);
      r ^= ((b >>> i) & 1) * a;
    }
    return r;
  }

  // The generator polynomial's coefficients (its leading 1 left out), highest power first.
  function generator(degree) {
    const g = new Array(degree).fill(0);
    g[degree - 1] = 1;
    let root = 1;
    for (let i = 0; i < degree; i++) {
      for (let j = 0; j < degree; j++) {
        g[j] = times(g[j], root);
        if (j + 1 < degree) g[j] ^= g[j + 1];
      }
      root = times(root, 2);
    }
    return g;
  }

  function remainder(data, g) {
    const r = new Array(g.length).fill(0);
    for (const b of data) {
      const factor = b ^ r.shift();
      r.push(0);
      for (let i = 0; i < g.length; i++) r[i] ^= times(g[i], factor);
    }
    return r;
  }

  // ---- the codewords ------------------------------------------------------------------------
  function codewords(bytes, v, level) {
    const bits = [];
    const put = (value, n) => { for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
    put(4, 4); // byte mode
    put(bytes.length, v <= 9 ? 8 : 16);
    for (const b of bytes) put(b, 8);
    const capacity = dataCodewords(v, level) * 8;
    put(0, Math.min(4, capacity - bits.length)); // the terminator
    while (bits.length % 8) bits.push(0);
    const data = [];
    for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    for (let pad = 0xec; data.length < capacity / 8; pad ^= 0xec ^ 0x11) data.push(pad);
    // Split into blocks (the short ones first), each followed by its error correction; then
    // interleaved, codeword by codeword across the blocks.
    const count = BLOCKS[level][v];
    const ecc = ECC_PER_BLOCK[level][v];
    const total = Math.floor(rawModules(v) / 8);
    const shortLen = Math.floor(total / count) - ecc; // data codewords in a short block
    const shorts = count - (total % count);
    const g = generator(ecc);
    const blocks = [];
    for (let i = 0, at = 0; i < count; i++) {
      const len = shortLen + (i < shorts ? 0 : 1);
      const d = data.slice(at, at + len);
      at += len;
      blocks.push({ d, e: remainder(d, g) });
    }
    const out = [];
    for (let i = 0; i <= shortLen; i++) for (const b of blocks) if (i < b.d.length) out.push(b.d[i]);
    for (let i = 0; i < ecc; i++) for (const b of blocks) out.push(b.e[i]);
    return out;
  }

  // ---- the matrix ---------------------------------------------------------------------------
  function bchFormat(level, mask) {
    const data = (LEVEL_BITS[level] << 3) | mask;
    let r = data;
    for (let i = 0; i < 10; i++) r = (r << 1) ^ ((r >>> 9) * 0x537);
    return ((data << 10) | r) ^ 0x5412;
  }

  function bchVersion(v) {
    let r = v;
    for (let i = 0; i < 12; i++) r = (r << 1) ^ ((r >>> 11) * 0x1f25);
    return (v << 12) | r;
  }

  const MASKS = [
    (x, y) => (x + y) % 2 === 0,
    (x, y) => y % 2 === 0,
    (x) => x % 3 === 0,
    (x, y) => (x + y) % 3 === 0,
    (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
    (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
    (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
    (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
  ];

  function matrix(v, level, words, mask) {
    const size = v * 4 + 17;
    const dark = Array.from({ length: size }, () => new Uint8Array(size));
    const fixed = Array.from({ length: size }, () => new Uint8Array(size));
    const set = (x, y, on) => { dark[y][x] = on ? 1 : 0; fixed[y][x] = 1; };
    for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); } // timing
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) { // finders and their separators
      for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx, y = cy + dy;
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, d !== 2 && d !== 4);
      }
    }
    const at = alignments(v);
    for (let i = 0; i < at.length; i++) for (let j = 0; j < at.length; j++) {
      const corner = (i === 0 && j === 0) || (i === 0 && j === at.length - 1) || (i === at.length - 1 && j === 0);
      if (corner) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
        set(at[i] + dx, at[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
    const format = bchFormat(level, mask);
    const bit = (n, i) => ((n >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) set(8, i, bit(format, i));
    set(8, 7, bit(format, 6));
    set(8, 8, bit(format, 7));
    set(7, 8, bit(format, 8));
    for (let i = 9; i < 15; i++) set(14 - i, 8, bit(format, i));
    for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(format, i));
    for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(format, i));
    set(8, size - 8, true); // the dark module
    if (v >= 7) {
      const bits = bchVersion(v);
      for (let i = 0; i < 18; i++) {
        const a = size - 11 + (i % 3), b = Math.floor(i / 3);
        set(a, b, bit(bits, i));
        set(b, a, bit(bits, i));
      }
    }
    // The codewords, in two-module columns from the right, up and down in turn (the
    // vertical timing column skipped), masked.
    let k = 0;
    const n = words.length * 8;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < size; step++) {
        const y = upward ? size - 1 - step : step;
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          if (fixed[y][x]) continue;
          const on = k < n ? bit(words[k >>> 3], 7 - (k & 7)) : false;
          k++;
          dark[y][x] = (on !== MASKS[mask](x, y)) ? 1 : 0;
        }
      }
    }
    return dark;
  }

  // The standard's penalty of a masked matrix: long runs, 2x2 blocks, finder-like patterns,
  // and an unbalanced share of dark modules.
  function penalty(dark) {
    const size = dark.length;
    let score = 0;
    const lines = [];
    for (let y = 0; y < size; y++) lines.push(Array.from(dark[y]));
    for (let x = 0; x < size; x++) lines.push(dark.map((row) => row[x]));
    const like = [[1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1]];
    for (const line of lines) {
      let run = 1;
      for (let i = 1; i <= size; i++) {
        if (i < size && line[i] === line[i - 1]) run++;
        else { if (run >= 5) score += run - 2; run = 1; }
      }
      for (let i = 0; i + 11 <= size; i++) {
        for (const p of like) if (p.every((b, j) => line[i + j] === b)) score += 40;
      }
    }
    for (let y = 0; y + 1 < size; y++) for (let x = 0; x + 1 < size; x++) {
      const c = dark[y][x];
      if (c === dark[y][x + 1] && c === dark[y + 1][x] && c === dark[y + 1][x + 1]) score += 3;
    }
    let on = 0;
    for (const row of dark) for (const c of row) on += c;
    const total = size * size;
    score += (Math.ceil(Math.abs(on * 20 - total * 10) / total) - 1) * 10;
    return score;
  }

  function encode(text) {
    const bytes = new TextEncoder().encode(text);
    for (const level of [1, 0]) {
      for (let v = 1; v <= 40; v++) {
        const need = 4 + (v <= 9 ? 8 : 16) + bytes.length * 8;
        if (need > dataCodewords(v, level) * 8) continue;
        const words = codewords(bytes, v, level);
        let best = null, bestScore = Infinity;
        for (let mask = 0; mask < 8; mask++) {
          const m = matrix(v, level, words, mask);
          const s = penalty(m);
          if (s < bestScore) { best = m; bestScore = s; }
        }
        return { size: best.length, version: v, level: LEVEL_NAMES[level], dark: (x, y) => best[y][x] === 1 };
      }
    }
    return null; // longer than a QR code holds
  }

  function draw(canvas, text, scale = 4) {
    const code = encode(text);
    if (!code) return null;
    const quiet = 4;
    const side = (code.size + quiet * 2) * scale;
    canvas.width = side;
    canvas.height = side;
    canvas.style.maxWidth = "100%"; // a long link's code shrinks to a narrow screen, crisp
    canvas.style.imageRendering = "pixelated";
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, side, side);
    ctx.fillStyle = "#000";
    for (let y = 0; y < code.size; y++) for (let x = 0; x < code.size; x++) {
      if (code.dark(x, y)) ctx.fillRect((x + quiet) * scale, (y + quiet) * scale, scale, scale);
    }
    canvas.dataset.version = String(code.version);
    canvas.dataset.level = code.level;
    return code;
  }

  window.getawayQR = { encode, draw };
})();
