import { optionError } from '../../errors.js';
import { utf8Bytes } from '../../graph/document.js';
import { hostOfUrl } from '../../graph/url.js';
import { init, resolveSketchOptions } from '../../index.js';
import { sectionOfUrl, sketchCrawl } from '../../template/sketch.js';
import { withContentEvidence } from '../../template/evidence.js';
import { CONTENT_FLAGS, CONTENT_USAGE, contentOptionsOf, reportContent } from '../content.js';
import { nearDuplicates, type NearDuplicateOptions } from '../../cluster/near-duplicates.js';
import { clusterRecord } from '../../cluster/records.js';
import { enumFlag, formatOf, intFlag, numberFlag, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { openCrawl } from '../input.js';
import { createRecordWriter } from '../output.js';

/** Flags shared by dups and index (the clustering policy). */
export const POLICY_FLAGS = {
  threshold: { type: 'string' },
  containment: { type: 'string' },
  'common-cap': { type: 'string' },
  equivalence: { type: 'string' },
} as const;

/** Help text for POLICY_FLAGS. */
export const POLICY_USAGE = `  --threshold R         resemblance at which two pages join a cluster, 0..1 (default 0.5)
  --containment C       also join when either page's containment in the other reaches C (default: off)
  --common-cap N        ignore shingles found in more than N pages (default 1000)
  --equivalence LEVEL   none | identical | lexical | shingle: equivalent pages set aside before
                        clustering and added back with that kind (default shingle: all three)`;

/** Takes parsed values; returns the policy options they set. */
export function policyOf(values: CommandContext['values']): { threshold: number; containment?: number; commonCap: number; equivalence: 'none' | 'identical' | 'lexical' | 'shingle' } {
  return {
    threshold: numberFlag(values, 'threshold', 0.5, 0, 1),
    containment: values.containment === undefined ? undefined : numberFlag(values, 'containment', 0, 0, 1),
    commonCap: intFlag(values, 'common-cap', 1000, 1, 0x7fffffff),
    equivalence: enumFlag(values, 'equivalence', 'shingle', ['none', 'identical', 'lexical', 'shingle'] as const),
  };
}

/** `resemble dups`: near-duplicate clusters of a crawl, one JSON line per cluster with evidence. */
export const command: Command = {
  name: 'dups',
  summary: 'cluster near-duplicate pages (Broder et al.), with the evidence for every member',
  usage: `Usage: resemble dups INPUT... [--threshold 0.5] [--containment C] [--method pairs|super-shingles|lsh]
                    [--common-cap 1000] [flags] [sketch flags]

INPUT is a wget mirror folder, .warc[.gz], .jsonl[.gz] or URL list. Prints one record per cluster of
two or more pages, clusters in input order of their representative:
  cluster, representative, size, chained,
  members: [{url, kind, via, resemblance, containment, contains, shared, hits, depth,
             toRepresentative, chained}]   representative first, then input order
kind is how a member joined: representative | identical (same bytes) | lexical (same canonical
text) | shingle (same sketch) | near (estimated resemblance, or containment, over the policy).
via is the member it joined through; resemblance, containment (this page in via) and contains
(via in this page) are estimates for that pair; shared counts sketch values in common and hits
the keys the candidate step matched; toRepresentative is the estimated resemblance to the
representative; chained marks members in the cluster only through a chain of links. With
--content main (the default) each member also says which share of its page was template and how
many shingles its content had (template, contentShingles); pages with too little content after the
template are counted on stderr and not clustered.

Flags:
${POLICY_USAGE}
  --method M            pairs (count shared sketch values; default), super-shingles (any shared
                        super-shingle joins), lsh (banding over a k-value signature)
  --verify              super-shingles / lsh: keep only candidates over the threshold
  --k N                 lsh: signature length (default 128)
  --super-shingle N     super-shingles: sketch values per super-shingle (default 2)
  --representative R    first (input order; default) | earliest | newest (crawl date) | most-linked

${CONTENT_USAGE}

${SKETCH_USAGE}`,
  options: {
    ...READER_FLAGS,
    ...POLICY_FLAGS, method: { type: 'string' }, verify: { type: 'boolean' }, k: { type: 'string' },
    'super-shingle': { type: 'string' }, representative: { type: 'string' }, ...CONTENT_FLAGS, ...SKETCH_FLAGS,
  },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const policy = policyOf(ctx.values);
    const method = enumFlag(ctx.values, 'method', 'pairs', ['pairs', 'super-shingles', 'lsh'] as const);
    const rule = enumFlag(ctx.values, 'representative', 'first', ['first', 'earliest', 'newest', 'most-linked'] as const);
    const sketchOptions = sketchOptionsOf(ctx.values);
    if (method === 'lsh') sketchOptions.k = intFlag(ctx.values, 'k', 128, 1, 4096);
    else if (ctx.values.k !== undefined) throw optionError('--k', 'no value unless --method lsh', ctx.values.k);
    if (method === 'super-shingles') sketchOptions.superShingle = intFlag(ctx.values, 'super-shingle', 2, 1, 64);
    else if (ctx.values['super-shingle'] !== undefined) throw optionError('--super-shingle', 'no value unless --method super-shingles', ctx.values['super-shingle']);
    const content = contentOptionsOf(ctx.values);
    Object.assign(sketchOptions, content.sketch);
    resolveSketchOptions(sketchOptions);
    const options: NearDuplicateOptions = { ...policy, method, representative: rule };
    if (ctx.values.verify) {
      if (method === 'pairs') throw optionError('--verify', 'no flag with --method pairs (pairs are always checked)', true);
      options.verify = true;
    }
    await init();
    const crawl = await openCrawl(ctx, ctx.positionals, { links: rule === 'most-linked', label: 'reading' });
    const docs = crawl.documents;
    if (rule === 'earliest' || rule === 'newest') options.dates = Float64Array.from(docs, (d) => (d.date ? Date.parse(d.date) : NaN));
    if (rule === 'most-linked') {
      const inl = crawl.graph.inLinks();
      options.inlinks = Float64Array.from(docs, (_, i) => inl.offsets[i + 1] - inl.offsets[i]);
    }
    // The one place pages become sketches (content 'main': each host's template learnt first).
    const { set, templates } = sketchCrawl(docs.map(utf8Bytes), docs.map((d) => hostOfUrl(d.url)), sketchOptions, content.template,
      content.sketch.content === 'main' ? docs.map((d) => sectionOfUrl(d.url)) : undefined);
    for (const e of set.errors) ctx.err.write(`${docs[e.index].source ?? docs[e.index].url}: ${e.message}\n`);
    const nd = nearDuplicates(set, options);
    const c = nd.clusters;
    const urls = docs.map((d) => d.url);
    const out = createRecordWriter(ctx.out, format);
    for (let i = 0; i < c.count; i++) out.write(withContentEvidence(clusterRecord(c, i, urls), c.membersOf(i), set));
    out.end();
    reportContent(ctx, content, set, urls, templates);
    if (!ctx.quiet) {
      const s = nd.stats;
      ctx.err.write(`dups: ${s.documents} pages; set aside ${s.identical} identical, ${s.lexical} lexical, ${s.shingle} shingle-equivalent; `
        + `${s.candidatePairs} candidate pairs, ${c.stats.acceptedPairs} joined; ${c.count} clusters holding ${c.stats.clusteredDocuments} pages`
        + ` (${c.stats.chainedClusters} with chains); ${s.ignoredShingles} common ${method === 'lsh' ? 'band keys' : method === 'super-shingles' ? 'super-shingles' : 'shingles'} ignored`
        + `${s.lsh ? `; lsh ${s.lsh.bands} bands × ${s.lsh.rows} rows` : ''}\n`);
    }
    return 0;
  },
};
