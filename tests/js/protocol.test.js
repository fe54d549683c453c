// docs/protocol.md against js/protocol.d.ts, both ways: every message type the document
// lists is a member of ServerMessage / ClientMessage (and the reverse); every field its
// JSON examples and key lists name is declared by the types tagged `@wire <section>`;
// every field those types declare is named in that section.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import ts from "typescript";
import { JS, ROOT } from "./dom.js";

const DOC = readFileSync(`${ROOT}docs/protocol.md`, "utf8");
const DTS = readFileSync(`${JS}protocol.d.ts`, "utf8");

// Example keys in the document that are keys of a map, not field names (the game key of
// by_game, a bot's name and option names in bot_options, a variant flag, a bot option).
/** @type {{ [section: string]: string[] }} */
const MAP_KEYS = {
  "GET /api/games": ["random", "playouts", "policy", "open_gaps"],
  "POST /api/matches": ["nearest_first"],
  "GET /api/players/{player_id}/stats": ["posthus"],
  "← error": ["card", "place", "left"],
};
// Fields a section mentions that belong to another section's body.
/** @type {{ [section: string]: string[] }} */
const MENTIONS = { "GET /api/games": ["deal"] };

// ------------------------------------------------------------------ the document

/**
 * The document cut into sections: a heading (## or ###) up to the next one; inside
 * "Server → client" each "`type` —" paragraph is the section "← type"; each row of the
 * "Client → server" table is the section "→ type".
 * @returns {Map<string, string>} section id → its text
 */
function docSections() {
  /** @type {Map<string, string>} */
  const out = new Map();
  let id = "";
  let mode = "";
  /** @param {string} key @param {string} line */
  const add = (key, line) => out.set(key, `${out.get(key) ?? ""}${line}\n`);
  let fenced = false;
  for (const line of DOC.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const h = fenced ? null : /^#{2,3} (.*)$/.exec(line);
    if (h) {
      // "### `GET /api/x` → `201 {…}`" is the section "GET /api/x"; "### Server → client" itself.
      const first = /^`([^`]+)`/.exec(h[1]);
      id = first ? first[1] : h[1].replace(/`/g, "").trim();
      mode = id === "Server → client" ? "server" : id === "Client → server" ? "client" : "";
      add(id, line);
      continue;
    }
    const msg = mode === "server" && !fenced ? /^`(\w+)` — /.exec(line) : null;
    if (msg) id = `← ${msg[1]}`;
    // The message table is the one headed "| t | d | effect |" (not the click targets').
    if (mode === "client" && /^\| t \| d \|/.test(line)) mode = "client-table";
    else if (mode === "client-table" && !line.startsWith("|")) mode = "client-done";
    const row = mode === "client-table" ? /^\| `(\w+)` \| (.*?) \|/.exec(line) : null;
    if (row) {
      add(`→ ${row[1]}`, row[2]);
      continue;
    }
    add(id, line);
  }
  return out;
}

/**
 * Field names a section's examples give as JSON keys: `"name":` in code, and in inline
 * key lists such as `{"card", "discard", "steps": [{"seat" (whose marble), …}]}`.
 * @param {string} text
 * @param {string} [id] the section (its map keys are left out)
 * @returns {Set<string>}
 */
function docKeys(text, id = "") {
  const keys = new Set();
  const code = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
  const spans = [...text.replace(/```[\s\S]*?```/g, "").matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  for (const c of [...code, ...spans]) for (const m of c.matchAll(/"(\w+)"\s*:/g)) keys.add(m[1]);
  for (const s of spans) {
    if (!/^\s*[{"]/.test(s)) continue;
    for (const m of s.matchAll(/(?<=[{,]\s*)"(\w+)"(?=\s*[:,}(])/g)) keys.add(m[1]);
  }
  for (const k of MAP_KEYS[id] ?? []) keys.delete(k);
  return keys;
}

/** Every word a section names in code or quotes (the reverse check's vocabulary). */
function docNames(/** @type {string} */ text) {
  const names = new Set(docKeys(text));
  const prose = text.replace(/```[\s\S]*?```/g, "");
  for (const m of prose.matchAll(/`([^`]+)`/g)) for (const w of m[1].matchAll(/\w+/g)) names.add(w[0]);
  for (const m of text.matchAll(/"(\w+)"/g)) names.add(m[1]);
  return names;
}

// ------------------------------------------------------------------ the declarations

const source = ts.createSourceFile("protocol.d.ts", DTS, ts.ScriptTarget.Latest, true);
/** @type {Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>} */
const decls = new Map();
for (const st of source.statements) {
  if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) decls.set(st.name.text, st);
}

/**
 * The sections of a declaration's `@wire` tags (one tag may list several, comma-separated).
 * @param {ts.Node} node
 * @returns {string[]}
 */
function wiresOf(node) {
  return ts.getJSDocTags(node)
    .filter((tag) => tag.tagName.text === "wire")
    .flatMap((tag) => (ts.getTextOfJSDocComment(tag.comment) ?? "").split(/,\s+/))
    .map((section) => section.trim());
}

/**
 * The fields a declaration describes: its properties, those of the interfaces it extends
 * and of the types its properties use — stopping at declarations of another section
 * unless `deep` (the document's examples show nested bodies in full).
 * @param {string} name
 * @param {string} section
 * @param {boolean} [deep]
 * @param {Set<string>} [seen]
 * @returns {Set<string>}
 */
function fieldsOf(name, section, deep = false, seen = new Set()) {
  const out = new Set();
  const decl = decls.get(name);
  if (!decl || seen.has(name)) return out;
  const wire = wiresOf(decl);
  if (!deep && seen.size > 0 && wire.length && !wire.includes(section)) return out;
  seen.add(name);
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isPropertySignature(node) && node.name && ts.isIdentifier(node.name)) out.add(node.name.text);
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      for (const f of fieldsOf(node.typeName.text, section, deep, seen)) out.add(f);
    }
    if (ts.isExpressionWithTypeArguments(node) && ts.isIdentifier(node.expression)) {
      for (const f of fieldsOf(node.expression.text, section, deep, seen)) out.add(f);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(decl, visit);
  return out;
}

/** @returns {Map<string, string[]>} section → names of the declarations tagged with it */
function tagged() {
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const [name, decl] of decls) {
    for (const wire of wiresOf(decl)) out.set(wire, [...(out.get(wire) ?? []), name]);
  }
  return out;
}

/** The `t` of each member of a union of `Frame<"t", D>`. */
function frameTypes(/** @type {string} */ union) {
  const decl = decls.get(union);
  assert.ok(decl && ts.isTypeAliasDeclaration(decl) && ts.isUnionTypeNode(decl.type), union);
  return decl.type.types.map((m) => {
    assert.ok(ts.isTypeReferenceNode(m) && m.typeArguments, `${union}: ${m.getText()}`);
    const lit = m.typeArguments[0];
    assert.ok(ts.isLiteralTypeNode(lit) && ts.isStringLiteral(lit.literal), m.getText());
    return lit.literal.text;
  });
}

const sections = docSections();
const wires = tagged();
const FRAME = fieldsOf("Frame", "WebSocket /ws/{match_id}");
/** @type {Set<string>} */
const ALL = new Set();
for (const name of decls.keys()) for (const f of fieldsOf(name, "", true)) ALL.add(f);

/**
 * The fields declared for a section, nested bodies included: a WebSocket message adds the
 * frame's t, v, d; a section also declares the properties that hold its types
 * ("fair" of the match info for the section "Fair deals").
 * @param {string} id
 */
function declaredFor(id) {
  const out = new Set([...(/^[←→] /.test(id) ? FRAME : []), ...(MENTIONS[id] ?? [])]);
  const mine = wires.get(id) ?? [];
  for (const name of mine) for (const f of fieldsOf(name, id, true)) out.add(f);
  /** @param {ts.Node} node */
  const holders = (node) => {
    if (ts.isPropertySignature(node) && node.type && ts.isIdentifier(node.name)) {
      const refs = node.type.getText(source).match(/\w+/g) ?? [];
      if (refs.some((r) => mine.includes(r))) out.add(node.name.text);
    }
    ts.forEachChild(node, holders);
  };
  holders(source);
  return out;
}

// ------------------------------------------------------------------ the tests

test("the document's server → client messages are exactly ServerMessage's", () => {
  const doc = [...sections.keys()].filter((k) => k.startsWith("← ")).map((k) => k.slice(2));
  assert.ok(doc.length >= 7, `found ${doc}`);
  assert.deepEqual(frameTypes("ServerMessage").sort(), doc.sort());
});

test("the document's client → server messages are exactly ClientMessage's", () => {
  const doc = [...sections.keys()].filter((k) => k.startsWith("→ ")).map((k) => k.slice(2));
  assert.ok(doc.length >= 9, `found ${doc}`);
  assert.deepEqual(frameTypes("ClientMessage").sort(), doc.sort());
});

test("every @wire tag names a section of the document", () => {
  for (const id of wires.keys()) assert.ok(sections.has(id), `@wire ${id}: no such section in docs/protocol.md`);
});

test("every field the document's examples name is declared", () => {
  /** @type {string[]} */
  const missing = [];
  for (const [id, text] of sections) {
    const keys = docKeys(text, id);
    if (!keys.size) continue;
    // A section without declarations of its own (prose, an example exchange) may name
    // any declared field.
    const declared = wires.has(id) ? declaredFor(id) : ALL;
    for (const k of keys) if (!declared.has(k)) missing.push(`${id}: ${k}`);
  }
  assert.deepEqual(missing, [], "fields in docs/protocol.md missing from protocol.d.ts (@wire <section>)");
});

test("every declared field is named in its section of the document", () => {
  /** @type {string[]} */
  const unnamed = [];
  for (const [id, names] of wires) {
    const text = sections.get(id) ?? "";
    const named = docNames(text);
    for (const name of names) {
      for (const f of fieldsOf(name, id)) if (!named.has(f)) unnamed.push(`${id}: ${name}.${f}`);
    }
  }
  assert.deepEqual(unnamed, [], "fields in protocol.d.ts that docs/protocol.md does not name there");
});

test("the message sections found in the document carry fields (the parser reads it)", () => {
  assert.ok(docKeys(sections.get("← state") ?? "").has("legal"));
  assert.ok(docKeys(sections.get("→ act") ?? "").has("action"));
  assert.ok(docKeys(sections.get("GET /api/games") ?? "").has("solver"));
});
