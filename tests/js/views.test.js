// js/games/views.d.ts against the recorded views (tests/js/fixtures/, checked against the
// engine by tests/test_js_fixtures.py): each game's interface declares exactly the fields
// its recorded views carry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { JS, ROOT } from "./dom.js";

const source = ts.createSourceFile("views.d.ts", readFileSync(`${JS}games/views.d.ts`, "utf8"), ts.ScriptTarget.Latest, true);
/** @type {Map<string, Set<string>>} */
const declared = new Map();
for (const st of source.statements) {
  if (!ts.isInterfaceDeclaration(st)) continue;
  const fields = new Set();
  for (const m of st.members) if (ts.isPropertySignature(m) && ts.isIdentifier(m.name)) fields.add(m.name.text);
  declared.set(st.name.text, fields);
}

const INTERFACE = { studenter: "StudenterView", posthus: "PosthusView", gammel_jomfru: "GammelJomfruView", kugler: "KuglerView" };
const FIXTURES = `${ROOT}tests/js/fixtures/`;
/** @type {Map<string, Set<string>>} */
const recorded = new Map();
for (const f of readdirSync(FIXTURES).filter((n) => n.endsWith(".json"))) {
  const fx = JSON.parse(readFileSync(FIXTURES + f, "utf8"));
  const seen = recorded.get(fx.game) ?? new Set();
  for (const k of Object.keys(fx.state.view)) seen.add(k);
  recorded.set(fx.game, seen);
}

for (const [game, name] of Object.entries(INTERFACE)) {
  test(`${name} declares exactly the fields of ${game}'s recorded views`, () => {
    const mine = declared.get(name);
    assert.ok(mine, `${name} is missing from views.d.ts`);
    assert.deepEqual([...mine].sort(), [...(recorded.get(game) ?? [])].sort());
  });
}
