/**
 * RFC 6962 §2.1 written as its recursive definitions over lists (MTH, PATH, PROOF/SUBPROOF), with no
 * shared code beyond SHA-256: the naive reference the library's frontier, sources and proofs are
 * compared against, and the Certificate Transparency test leaves and their published hashes.
 */
import { sha256 } from "@noble/hashes/sha2.js";

const cat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The largest power of two strictly below n. */
const k = (n: number): number => 2 ** Math.ceil(Math.log2(n) - 1);

/** MTH(D[0:n]) by the RFC's recursion over leaf data. */
export function mth(d: readonly Uint8Array[], n = d.length): Uint8Array {
  return reference(d).mth(0, n);
}

/** PATH(m, D[0:n]) (RFC 6962 §2.1.1). */
export function path(m: number, d: readonly Uint8Array[], n = d.length): Uint8Array[] {
  return reference(d).path(m, 0, n);
}

/** PROOF(m, D[0:n]) = SUBPROOF(m, D[0:n], true) (RFC 6962 §2.1.2). */
export function proof(m: number, d: readonly Uint8Array[], n = d.length): Uint8Array[] {
  return reference(d).subproof(m, 0, n, true);
}

const references = new WeakMap<readonly Uint8Array[], ReturnType<typeof makeReference>>();

function reference(d: readonly Uint8Array[]): ReturnType<typeof makeReference> {
  let r = references.get(d);
  if (!r) references.set(d, (r = makeReference(d)));
  return r;
}

/** The RFC's three recursions over D[start:end] of one leaf list, MTH remembered per range. */
function makeReference(d: readonly Uint8Array[]) {
  const memo = new Map<string, Uint8Array>();
  const mth = (start: number, end: number): Uint8Array => {
    const key = `${start}:${end}`;
    let hash = memo.get(key);
    if (!hash) {
      if (end === start) hash = sha256(new Uint8Array(0));
      else if (end - start === 1) hash = sha256(cat(Uint8Array.of(0), d[start]!));
      else hash = sha256(cat(Uint8Array.of(1), mth(start, start + k(end - start)), mth(start + k(end - start), end)));
      memo.set(key, hash);
    }
    return hash;
  };
  const path = (m: number, start: number, end: number): Uint8Array[] => {
    if (end - start <= 1) return [];
    const split = k(end - start);
    return m < split
      ? [...path(m, start, start + split), mth(start + split, end)]
      : [...path(m - split, start + split, end), mth(start, start + split)];
  };
  const subproof = (m: number, start: number, end: number, b: boolean): Uint8Array[] => {
    if (m === end - start) return b ? [] : [mth(start, end)];
    const split = k(end - start);
    return m <= split
      ? [...subproof(m, start, start + split, b), mth(start + split, end)]
      : [...subproof(m - split, start + split, end, false), mth(start, start + split)];
  };
  return { mth, path, subproof };
}

const hex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

/** The eight leaf inputs of the Certificate Transparency Merkle tests (transparency-dev/merkle testonly). */
export const CT_LEAVES: Uint8Array[] = [
  "",
  "00",
  "10",
  "2021",
  "3031",
  "40414243",
  "5051525354555657",
  "606162636465666768696a6b6c6d6e6f",
].map(hex);

/** Their roots for sizes 0 to 8, as the CT tests publish them. */
export const CT_ROOTS: string[] = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

/** [index, size, audit path] from the CT inclusion tests. */
export const CT_INCLUSION: [number, number, string[]][] = [
  [0, 1, []],
  [0, 2, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"]],
  [1, 2, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"]],
  [2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]],
  [
    1,
    5,
    [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
  [
    0,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    5,
    8,
    [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
];

/** [first, second, proof] from the CT consistency tests. */
export const CT_CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    6,
    8,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [
    2,
    5,
    [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
];

/** Leaf data for index i of a generated tree: the index as 4 ASCII digits. */
export function generatedLeaf(i: number): Uint8Array {
  return new TextEncoder().encode(`leaf ${String(i).padStart(4, "0")}`);
}
