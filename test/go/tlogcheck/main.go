// Command tlogcheck verifies trestle's transparency-log output with Go's own implementation
// (golang.org/x/mod/sumdb/note and sumdb/tlog), so the formats are checked by code nobody on the
// trestle project wrote. It reads a JSON array of cases on stdin and writes one JSON verdict per
// case on stdout: {"id": ..., "ok": bool, "detail": ...}. test/unit/protocol/tlog/go-crosscheck.test.ts
// drives it; run it by hand with GO111MODULE=off GOPATH=/usr/share/gocode go run ./test/go/tlogcheck.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// A Case is one thing to check; Kind selects which fields matter.
type Case struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // note, checkpoint, inclusion, consistency, tiles, served (served.go)

	Note           string   `json:"note"`
	Vkeys          []string `json:"vkeys"`
	CosignerVkeys  []string `json:"cosigner_vkeys"`
	Leaves         []string `json:"leaves"` // base64 leaf data
	Size           int64    `json:"size"`
	Root           string   `json:"root"`
	Index          int64    `json:"index"`
	Leaf           string   `json:"leaf"` // base64 leaf data
	Proof          []string `json:"proof"`
	First          int64    `json:"first"`
	FirstRoot      string   `json:"first_root"`
	Tiles          []Tile   `json:"tiles"`
	WantSignatures []string `json:"want_signatures"`
	URL            string   `json:"url"`      // served: the log's prefix on a running relay, ending in "/"
	Indexes        []int64  `json:"indexes"`  // served: records to prove
	OldNote        string   `json:"old_note"` // served: an earlier checkpoint the current one must extend
}

// A Tile is a C2SP tile path and its bytes (base64).
type Tile struct {
	Path string `json:"path"`
	Data string `json:"data"`
}

// A Verdict is Go's answer for one case.
type Verdict struct {
	ID     string `json:"id"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func main() {
	var cases []Case
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, "tlogcheck: reading cases:", err)
		os.Exit(2)
	}
	out := json.NewEncoder(os.Stdout)
	for _, c := range cases {
		detail, err := check(c)
		v := Verdict{ID: c.ID, OK: err == nil, Detail: detail}
		if err != nil {
			v.Detail = err.Error()
		}
		if err := out.Encode(v); err != nil {
			os.Exit(2)
		}
	}
}

func check(c Case) (string, error) {
	switch c.Kind {
	case "note":
		n, err := open(c.Note, c.Vkeys, c.CosignerVkeys)
		if err != nil {
			return "", err
		}
		return names(n.Sigs), nil
	case "checkpoint":
		return checkCheckpoint(c)
	case "inclusion":
		root, err := hash(c.Root)
		if err != nil {
			return "", err
		}
		leaf, err := base64.StdEncoding.DecodeString(c.Leaf)
		if err != nil {
			return "", err
		}
		proof, err := hashes(c.Proof)
		if err != nil {
			return "", err
		}
		return "", tlog.CheckRecord(tlog.RecordProof(proof), c.Size, root, c.Index, tlog.RecordHash(leaf))
	case "consistency":
		first, err := hash(c.FirstRoot)
		if err != nil {
			return "", err
		}
		second, err := hash(c.Root)
		if err != nil {
			return "", err
		}
		proof, err := hashes(c.Proof)
		if err != nil {
			return "", err
		}
		return "", tlog.CheckTree(tlog.TreeProof(proof), c.Size, second, c.First, first)
	case "tiles":
		return checkTiles(c)
	case "served":
		return checkServed(c)
	}
	return "", fmt.Errorf("unknown case kind %q", c.Kind)
}

// open verifies a note with note.Open: Ed25519 verifier keys through note.NewVerifier, and
// timestamped cosigner keys (type 0x04) through cosigner below.
func open(msg string, vkeys, cosignerVkeys []string) (*note.Note, error) {
	var verifiers []note.Verifier
	for _, k := range vkeys {
		v, err := note.NewVerifier(k)
		if err != nil {
			return nil, fmt.Errorf("vkey %q: %v", k, err)
		}
		verifiers = append(verifiers, v)
	}
	for _, k := range cosignerVkeys {
		v, err := newCosigner(k)
		if err != nil {
			return nil, fmt.Errorf("cosigner vkey %q: %v", k, err)
		}
		verifiers = append(verifiers, v)
	}
	return note.Open([]byte(msg), note.VerifierList(verifiers...))
}

// checkCheckpoint opens a checkpoint note, reads its body as C2SP tlog-checkpoint says, and checks
// its root against the tree Go builds from the leaves (tlog.StoredHashes, tlog.TreeHash).
func checkCheckpoint(c Case) (string, error) {
	n, err := open(c.Note, c.Vkeys, c.CosignerVkeys)
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 || !strings.HasSuffix(n.Text, "\n") {
		return "", errors.New("checkpoint body has fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return "", fmt.Errorf("bad tree size line %q", lines[1])
	}
	root, err := hash(lines[2])
	if err != nil {
		return "", err
	}
	reader, err := build(c.Leaves)
	if err != nil {
		return "", err
	}
	if size > int64(len(c.Leaves)) {
		return "", fmt.Errorf("checkpoint size %d is past the %d leaves given", size, len(c.Leaves))
	}
	want, err := tlog.TreeHash(size, reader)
	if err != nil {
		return "", err
	}
	if want != root {
		return "", fmt.Errorf("root %s is not Go's tree hash %s", root, want)
	}
	return lines[0] + " " + names(n.Sigs), nil
}

// checkTiles compares tiles with the ones Go's tlog builds (height 8; C2SP paths drop Go's "8/").
func checkTiles(c Case) (string, error) {
	reader, err := build(c.Leaves)
	if err != nil {
		return "", err
	}
	want := map[string][]byte{}
	for _, t := range tlog.NewTiles(8, 0, c.Size) {
		data, err := tlog.ReadTileData(t, reader)
		if err != nil {
			return "", err
		}
		// NewTiles from 0 lists every width of a partial tile; the widest is this size's.
		key := fmt.Sprintf("%d/%d", t.L, t.N)
		if len(data) > len(want[key]) {
			want[key] = data
		}
	}
	paths := map[string][]byte{}
	for key, data := range want {
		var l, n int64
		fmt.Sscanf(key, "%d/%d", &l, &n)
		t := tlog.Tile{H: 8, L: int(l), N: n, W: len(data) / tlog.HashSize}
		paths[strings.Replace(t.Path(), "tile/8/", "tile/", 1)] = data
	}
	if len(paths) != len(c.Tiles) {
		return "", fmt.Errorf("Go has %d tiles, trestle gave %d", len(paths), len(c.Tiles))
	}
	for _, t := range c.Tiles {
		data, err := base64.StdEncoding.DecodeString(t.Data)
		if err != nil {
			return "", err
		}
		if !bytes.Equal(paths[t.Path], data) {
			return "", fmt.Errorf("tile %s differs from Go's", t.Path)
		}
	}
	return fmt.Sprintf("%d tiles", len(paths)), nil
}

// build stores every leaf as tlog.StoredHashes does and answers a HashReader over them.
func build(leaves []string) (tlog.HashReader, error) {
	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			if x < 0 || x >= int64(len(stored)) {
				return nil, fmt.Errorf("no stored hash %d", x)
			}
			out[i] = stored[x]
		}
		return out, nil
	})
	for i, leaf := range leaves {
		data, err := base64.StdEncoding.DecodeString(leaf)
		if err != nil {
			return nil, err
		}
		more, err := tlog.StoredHashes(int64(i), data, reader)
		if err != nil {
			return nil, err
		}
		stored = append(stored, more...)
	}
	return reader, nil
}

// cosigner is a note.Verifier for C2SP tlog-cosignature v1 Ed25519 cosignatures (type 0x04),
// written here from the specification: key ID over 0x04, signature = u64 time || Ed25519 over
// "cosignature/v1\ntime <t>\n" || note text.
type cosigner struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func newCosigner(vkey string) (*cosigner, error) {
	// The key's base64 may hold a '+': split at the first two only, as note.NewVerifier does.
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return nil, errors.New("not name+hash+key")
	}
	id, err := strconv.ParseUint(parts[1], 16, 32)
	if err != nil {
		return nil, err
	}
	material, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(material) != 1+ed25519.PublicKeySize || material[0] != 0x04 {
		return nil, errors.New("not a type 0x04 Ed25519 key")
	}
	sum := sha256.Sum256(append([]byte(parts[0]+"\n"), material...))
	if binary.BigEndian.Uint32(sum[:4]) != uint32(id) {
		return nil, errors.New("key ID does not match")
	}
	return &cosigner{name: parts[0], hash: uint32(id), key: ed25519.PublicKey(material[1:])}, nil
}

func (c *cosigner) Name() string    { return c.name }
func (c *cosigner) KeyHash() uint32 { return c.hash }
func (c *cosigner) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	if t > 1<<63-1 {
		return false
	}
	signed := append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", t)), msg...)
	return ed25519.Verify(c.key, signed, sig[8:])
}

func names(sigs []note.Signature) string {
	var out []string
	for _, s := range sigs {
		out = append(out, s.Name)
	}
	return strings.Join(out, ",")
}

func hash(b64 string) (tlog.Hash, error) {
	var h tlog.Hash
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(raw) != tlog.HashSize {
		return h, fmt.Errorf("not a base64 hash: %q", b64)
	}
	copy(h[:], raw)
	return h, nil
}

func hashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(list))
	for i, b64 := range list {
		h, err := hash(b64)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}
