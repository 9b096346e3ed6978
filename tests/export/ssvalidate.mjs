// ssvalidate.mjs SCHEMA FILE: FILE against speedscope's published JSON
// schema (draft-07), with no packages: the keywords that schema uses are
// implemented and any other makes the check fail, so that a new schema
// cannot pass unread.  Then what the schema cannot say and speedscope's
// importer relies on: frame indices in range, one weight per sample.
// The file must be UTF-8: invalid bytes fail (JSON is UTF-8; read
// leniently they would pass as U+FFFD).
import fs from 'node:fs'

const [schemaPath, filePath] = process.argv.slice(2)
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'))
const doc = JSON.parse(new TextDecoder('utf-8', { fatal: true })
  .decode(fs.readFileSync(filePath)))
const errors = []
const known = new Set(['$schema', '$ref', 'definitions', 'type', 'properties',
  'required', 'items', 'anyOf', 'const', 'enum', 'title', 'description'])

function resolve(ref) {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`)
  return ref.slice(2).split('/').reduce((o, k) => o[k], schema)
}

function typeOk(t, v) {
  switch (t) {
  case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v)
  case 'array': return Array.isArray(v)
  case 'number': return typeof v === 'number' && Number.isFinite(v)
  case 'integer': return Number.isInteger(v)
  case 'string': return typeof v === 'string'
  case 'boolean': return typeof v === 'boolean'
  case 'null': return v === null
  }
  throw new Error(`unsupported type ${t}`)
}

// The errors of v against s, at path p (none: []).
function check(s, v, p) {
  const errs = []
  for (const k of Object.keys(s))
    if (!known.has(k)) throw new Error(`unsupported schema keyword ${k} at ${p}`)
  if (s.$ref) errs.push(...check(resolve(s.$ref), v, p))
  if (s.type) {
    const ts = Array.isArray(s.type) ? s.type : [s.type]
    if (!ts.some(t => typeOk(t, v))) return [...errs, `${p}: not ${ts.join('|')}`]
  }
  if ('const' in s && v !== s.const) errs.push(`${p}: ${JSON.stringify(v)} is not ${JSON.stringify(s.const)}`)
  if (s.enum && !s.enum.includes(v)) errs.push(`${p}: ${JSON.stringify(v)} not in ${s.enum}`)
  if (s.required && typeOk('object', v))
    for (const r of s.required) if (!(r in v)) errs.push(`${p}: missing ${r}`)
  if (s.properties && typeOk('object', v))
    for (const [k, ps] of Object.entries(s.properties))
      if (k in v) errs.push(...check(ps, v[k], `${p}.${k}`))
  if (s.items && Array.isArray(v))
    v.forEach((x, i) => errs.push(...check(s.items, x, `${p}[${i}]`)))
  if (s.anyOf && !s.anyOf.some(a => check(a, v, p).length === 0))
    errs.push(`${p}: matches none of anyOf`)
  return errs
}

errors.push(...check(schema, doc, '$'))
if (errors.length === 0) {
  const nframes = doc.shared.frames.length
  doc.profiles.forEach((pr, i) => {
    if (pr.type !== 'sampled') return
    if (pr.samples.length !== pr.weights.length)
      errors.push(`profiles[${i}]: ${pr.samples.length} samples, ${pr.weights.length} weights`)
    pr.samples.forEach((st, j) => st.forEach(f => {
      if (!Number.isInteger(f) || f < 0 || f >= nframes)
        errors.push(`profiles[${i}].samples[${j}]: frame ${f} of ${nframes}`)
    }))
    const sum = pr.weights.reduce((a, b) => a + b, 0)
    if (pr.endValue - pr.startValue !== sum)
      errors.push(`profiles[${i}]: endValue - startValue ${pr.endValue - pr.startValue} != weights ${sum}`)
  })
}
for (const e of errors.slice(0, 20)) console.log(`# ${e}`)
process.exit(errors.length === 0 ? 0 : 1)
