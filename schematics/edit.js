'use strict';
/** Small text edits the generators make on existing files (imports, marked insertion points, one-line lists). */

/** Adds `name` to the named imports from `from` (a new import line after the last one when the file has none from there). */
function ensureImport(text, name, from, typeOnly = false) {
  const lines = text.split('\n');
  const esc = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const has = lines.some((l) => new RegExp(`^import .*[{,\\s]${name}[,}\\s].*from '${esc}';`).test(l));
  if (has) return text;
  const i = lines.findIndex((l) => new RegExp(`^import (type )?\\{[^}]*\\} from '${esc}';$`).test(l) && !!l.startsWith('import type') === typeOnly);
  if (i >= 0) {
    lines[i] = lines[i].replace(/\{\s*([^}]*?)\s*\}/, (_, list) => `{ ${[...list.split(',').map((s) => s.trim()).filter(Boolean), name].sort((a, b) => a.localeCompare(b)).join(', ')} }`);
    return lines.join('\n');
  }
  let last = -1;
  lines.forEach((l, j) => { if (/^import /.test(l)) last = j; });
  lines.splice(last + 1, 0, `import ${typeOnly ? 'type ' : ''}{ ${name} } from '${from}';`);
  return lines.join('\n');
}

/** Inserts `block` before the line holding `marker` (kept, so that the next generator finds it again). */
function beforeMarker(text, marker, block, file) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(marker));
  if (i < 0) throw new Error(`${file}: no line with "${marker}" (the generators insert there)`);
  lines.splice(i, 0, ...block.replace(/\n$/, '').split('\n'));
  return lines.join('\n');
}

/** Appends `item` to the array literal that opens on the one line matching `re` (`[a, b]` → `[a, b, item]`). */
function appendToOneLineArray(text, re, item, file) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => re.test(l));
  if (i < 0 || !/\];?\s*$/.test(lines[i])) throw new Error(`${file}: no one-line array matching ${re}`);
  lines[i] = lines[i].replace(/\s*\](;?)\s*$/, (_, semi) => `, ${item}]${semi}`).replace('[, ', '[');
  return lines.join('\n');
}

function read(tree, path) {
  const b = tree.read(path);
  if (!b) throw new Error(`${path} not found (run the generator at the project's root)`);
  return b.toString('utf8');
}

module.exports = { ensureImport, beforeMarker, appendToOneLineArray, read };
