/**
 * `npx tsx scripts/faces/measure-similarity.ts`: compares every pair of captures of the face set
 * (scripts/faces/face-set.ts) with human's embeddings and cosine similarity, prints the table of
 * same-person and different-person pairs, the error rates at candidate thresholds and the default
 * threshold chosen from them (docs/faces.md holds the last run). `--no-download` skips fetching
 * OpenCV's photos.
 */
import { cosineSimilarity } from '../../src/server/face-analysis/similarity';
import { createHumanAnalyzer } from '../../src/server/face-analysis/human-analyzer';
import { mainFace } from '../../src/server/face-analysis/main-face';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../../src/server/faces/thresholds';
import { ensureOpencvImages, faceSet, type Capture } from './face-set';
import { chooseThreshold, pairsOf, rates, spread, type ScoredPair } from './similarity-table';

if (!process.argv.includes('--no-download') && !ensureOpencvImages()) {
  console.error('opencv-doc could not be fetched: measuring the skimage people only');
}
const captures = faceSet();
if (captures.length === 0) {
  console.error('no face images: run `npm run fixtures` first');
  process.exit(1);
}
const analyzer = createHumanAnalyzer();
const embedded: (Capture & { embedding: number[] })[] = [];
const noFace: string[] = [];
for (const c of captures) {
  const face = mainFace(await analyzer.analyze(c.jpeg));
  if (face) embedded.push({ ...c, embedding: face.embedding });
  else noFace.push(`${c.person}: ${c.variant}`);
}
await analyzer.close();

const pairs: ScoredPair[] = pairsOf(embedded).map(([a, b]) => {
  const same = a.person === b.person;
  const label = same
    ? `${a.person}: ${a.variant === 'original' ? b.variant : b.variant === 'original' ? a.variant : `${a.variant} / ${b.variant}`}`
    : [a.person, b.person].sort().join(' × ');
  return { same, label, similarity: cosineSimilarity(a.embedding, b.embedding) };
});

const f3 = (v: number) => v.toFixed(3);
const people = [...new Set(embedded.map((c) => c.person))];
console.log(`## Face set: ${embedded.length} captures of ${people.length} people\n`);
for (const p of people) {
  const vs = embedded.filter((c) => c.person === p).map((c) => c.variant);
  console.log(`- ${p} (${vs.length}): ${vs.join(', ')}`);
}
if (noFace.length) console.log(`\nNo face found (left out): ${noFace.join('; ')}`);

console.log('\n## Same person: each capture against the original\n');
console.log('| person | capture | similarity |\n| --- | --- | --- |');
for (const p of people) {
  const orig = embedded.find((c) => c.person === p && c.variant === 'original');
  if (!orig) continue;
  for (const c of embedded.filter((x) => x.person === p && x !== orig)) {
    console.log(`| ${p} | ${c.variant} | ${f3(cosineSimilarity(orig.embedding, c.embedding))} |`);
  }
}

console.log('\n## All pairs by kind\n');
console.log('| kind | pairs | min | median | max |\n| --- | --- | --- | --- | --- |');
const kinds = new Map<string, number[]>();
for (const p of pairs) {
  const k = p.same ? `same: ${p.label.split(':')[0]}` : `different: ${p.label}`;
  kinds.set(k, [...(kinds.get(k) ?? []), p.similarity]);
}
for (const [k, v] of [...kinds].sort()) {
  const s = spread(v);
  console.log(`| ${k} | ${v.length} | ${f3(s.min)} | ${f3(s.median)} | ${f3(s.max)} |`);
}
const same = pairs.filter((p) => p.same);
const diff = pairs.filter((p) => !p.same);
const ss = spread(same.map((p) => p.similarity));
const ds = spread(diff.map((p) => p.similarity));
console.log(
  `| **all same-person** | ${same.length} | ${f3(ss.min)} | ${f3(ss.median)} | ${f3(ss.max)} |`,
);
console.log(
  `| **all different-person** | ${diff.length} | ${f3(ds.min)} | ${f3(ds.median)} | ${f3(ds.max)} |`,
);

const hardest = (list: ScoredPair[], dir: 1 | -1) =>
  [...list].sort((a, b) => dir * (a.similarity - b.similarity)).slice(0, 3);
console.log(
  '\nLowest same-person pairs: ' +
    hardest(same, 1)
      .map((p) => `${p.label} ${f3(p.similarity)}`)
      .join('; '),
);
console.log(
  'Highest different-person pairs: ' +
    hardest(diff, -1)
      .map((p) => `${p.label} ${f3(p.similarity)}`)
      .join('; '),
);

console.log('\n## Error rates\n');
console.log('| threshold | same-person refused | different-person accepted |\n| --- | --- | --- |');
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
for (const r of rates(pairs, [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8])) {
  console.log(`| ${r.threshold.toFixed(2)} | ${pct(r.falseReject)} | ${pct(r.falseAccept)} |`);
}
const choice = chooseThreshold(pairs);
console.log(`\nChosen threshold: ${choice.threshold} (${choice.why}).`);
console.log(`Default in src/server/faces/thresholds.ts: ${DEFAULT_SIMILARITY_THRESHOLD}.`);
if (choice.threshold !== DEFAULT_SIMILARITY_THRESHOLD) {
  console.log(
    'The measured choice differs from the default in the code: update it and docs/faces.md.',
  );
}
