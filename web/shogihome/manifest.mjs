// Writes engine.json, the manifest of ShogiHome's engine ABI (`shogihome-wasm-engine`), for the
// engine built in DIR (tsumugi.js and tsumugi.wasm there):
//
//   node web/shogihome/manifest.mjs DIR
//
// The name, the author and the options are read from the engine itself: the script starts the
// built module as ShogiHome does, sends `usi` and copies the `id` and `option` lines, so the
// manifest says what the engine declares by construction (the conformance test checks it).
// The presets are below.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The ABI version of ShogiHome's manifest parser (src/renderer/wasm-engine/manifest.ts,
// ENGINE_ABI), which refuses any other.
const ABI = 'shogihome-wasm-engine/1';

// Presets: one engine in ShogiHome's lists each. The ids become ShogiHome's engine URIs
// (es://usi-engine/builtin/<id>), saved in users' settings: never change or reuse one; add a
// new id (-v2) for different behaviour. Threads is 1 in all (the module has no threads).
const PRESETS = [
  {
    id: 'tsumugi-mate-shortest-v1',
    displayName: 'tsumugi (shortest mate)',
    values: { Threads: 1, PostSearch: 'shortest' },
  },
  {
    id: 'tsumugi-mate-fast-v1',
    displayName: 'tsumugi (first mate found, fast)',
    values: { Threads: 1, PostSearch: 'none' },
  },
  {
    id: 'tsumugi-mate-composer-v1',
    displayName: "tsumugi (composer's line)",
    values: { Threads: 1, PostSearch: 'composer' },
  },
];

// Parses `option name N type T [default D] [min a] [max b] [var v]...` (names and values
// without spaces, as tsumugi declares them). Numbers are kept as their digits (`raw`), since
// NodesLimit's maximum is past JavaScript's exact integers.
function parseOption(line) {
  const words = line.split(' ').slice(1);
  const option = {};
  for (let i = 0; i < words.length; i += 2) {
    const [key, value] = [words[i], words[i + 1]];
    if (value === undefined) throw new Error(`option line without a value for ${key}: ${line}`);
    switch (key) {
      case 'name':
      case 'type':
        option[key] = value;
        break;
      case 'default':
        option.default = option.type === 'spin' ? { raw: value } : value;
        break;
      case 'min':
      case 'max':
        option[key] = { raw: value };
        break;
      case 'var':
        (option.vars ||= []).push(value);
        break;
      default:
        throw new Error(`unknown word '${key}' in ${line}`);
    }
  }
  if (!option.name || !option.type) throw new Error(`option line without name or type: ${line}`);
  for (const key of ['default', 'min', 'max']) {
    if (option[key]?.raw !== undefined && !/^-?\d+$/.test(option[key].raw)) {
      throw new Error(`option ${option.name}: ${key} '${option[key].raw}' is not an integer`);
    }
  }
  return option;
}

// JSON with the raw digits of numbers.
function toJSON(value) {
  const text = JSON.stringify(
    value,
    (key, v) => (v && typeof v === 'object' && 'raw' in v ? `@raw:${v.raw}` : v),
    2,
  );
  return text.replace(/"@raw:(-?\d+)"/g, '$1') + '\n';
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node web/shogihome/manifest.mjs DIR');
  process.exit(2);
}
const modulePath = path.resolve(dir, 'tsumugi.js');
const create = (await import(pathToFileURL(modulePath).href)).default;
const errors = [];
const engine = await create({ printErr: (line) => errors.push(line) });
const lines = [];
engine.addMessageListener((line) => lines.push(line));
engine.postMessage('usi');
engine.postMessage('quit');
if (lines[lines.length - 1] !== 'usiok') {
  throw new Error(`no usiok from the engine: ${lines.join(' / ')} ${errors.join(' / ')}`);
}
const id = (key) => {
  const line = lines.find((l) => l.startsWith(`id ${key} `));
  if (!line) throw new Error(`no 'id ${key}' line`);
  return line.substring(`id ${key} `.length);
};
const options = lines.filter((l) => l.startsWith('option ')).map(parseOption);
for (const preset of PRESETS) {
  for (const name of Object.keys(preset.values)) {
    if (!options.some((o) => o.name === name)) {
      throw new Error(`preset ${preset.id}: the engine has no option ${name}`);
    }
  }
}
const manifest = {
  abi: ABI,
  module: 'tsumugi.js',
  moduleFormat: 'esm',
  name: id('name'),
  author: id('author'),
  options,
  presets: PRESETS,
};
fs.writeFileSync(path.join(dir, 'engine.json'), toJSON(manifest));
console.log(`${path.join(dir, 'engine.json')}: ${manifest.name}, ${options.length} options, ` +
  `${PRESETS.length} presets`);
