'use strict';
/** Names derived from a module folder name (kebab-case, plural: `invoices`, `credit-notes`). */
const words = (s) => String(s).trim().replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const cap = (w) => w[0].toUpperCase() + w.slice(1);
const singularWord = (w) => (/ies$/.test(w) ? w.slice(0, -3) + 'y' : /(ss|us)$/.test(w) ? w : /(x|ch|sh|ss)es$/.test(w) ? w.slice(0, -2) : /s$/.test(w) ? w.slice(0, -1) : w);

function names(module) {
  const ws = words(module);
  if (!ws.length || !/^[a-z]/.test(ws[0])) throw new Error(`"${module}" is not a module name (kebab-case, starting with a letter)`);
  const one = [...ws.slice(0, -1), singularWord(ws[ws.length - 1])];
  const pascal = (a) => a.map(cap).join('');
  const camel = (a) => a[0] + a.slice(1).map(cap).join('');
  return {
    module: ws.join('-'), // invoices (folder, file prefix)
    Module: pascal(ws), // Invoices (InvoicesModule, InvoicesService, InvoicesController)
    moduleCamel: camel(ws),
    table: ws.join('_'), // invoices
    thing: one.join('-'), // invoice (file name of the entity and repository)
    Thing: pascal(one), // Invoice (entity class)
    thingCamel: camel(one), // invoice (route parameter, sweep kind)
    thingSnake: one.join('_'), // invoice (event prefix)
    what: cap(one.join(' ')), // Invoice (messages)
    whats: ws.join(' '), // invoices (text)
  };
}
module.exports = { names, words, cap };
