/**
 * `npm run bench:search-recall -w @dukkan/bench`: the labelled search queries
 * (`apps/server/test/search/labelled-queries.json`) run against list-search matchers simulated in
 * TypeScript, without a database: today's (the lower-cased `search_text` column holds the
 * lower-cased term, a LIKE '%term%' in `resource-engine/data.ts`) and the same with both sides
 * folded by `normalizeSearchText`. Prints recall and precision per matcher, over every query but
 * the typos, for the typos apart, and per phenomenon (typos left out); `BENCH_SEARCH_DETAILS=1` lists each query a
 * matcher misses or over-finds. A measurement: it has no thresholds and exits 0.
 */
import { normalizeSearchText, searchWords } from '@dukkan/contract';
import {
  type LabelledQuery,
  readLabelledQueries,
  type SearchedResource,
  searchedText,
} from '../apps/server/test/search/labelled-queries.ts';
import { writeResult } from './support/results.ts';
import { runAsScript } from './support/script.ts';

/** A matcher: whether a record whose `search_text` is made of `text` is found by `query`. */
interface Matcher {
  name: string;
  matches(query: string, text: string): boolean;
}

const matchers: Matcher[] = [
  {
    // PostgreSQL's lower() on this corpus is JavaScript's toLowerCase() (no İ, no final Σ in it).
    name: 'today: lower-cased text contains the lower-cased term',
    matches: (query, text) => text.toLowerCase().includes(query.trim().toLowerCase()),
  },
  {
    name: 'normalizeSearchText on both sides, then contains',
    matches: (query, text) => normalizeSearchText(text).includes(normalizeSearchText(query.trim())),
  },
  {
    // The list's `LIKE '%word%word%'` over `search_fold` of the record (resource-engine/data.ts).
    name: 'searchWords in their order over the folded text (the list today)',
    matches: (query, text) => {
      const words = searchWords(query);
      if (words.length === 0) return true;
      const folded = normalizeSearchText(text);
      let from = 0;
      for (const word of words) {
        const at = folded.indexOf(word, from);
        if (at < 0) return false;
        from = at + word.length;
      }
      return true;
    },
  },
];

interface Outcome {
  query: LabelledQuery;
  found: string[];
  missed: string[];
  extra: string[];
}

interface Score {
  queries: number;
  expected: number;
  found: number;
  right: number;
  recall: number | null;
  precision: number | null;
}

function score(outcomes: Outcome[]): Score {
  const expected = outcomes.reduce((sum, outcome) => sum + outcome.query.expected.length, 0);
  const found = outcomes.reduce((sum, outcome) => sum + outcome.found.length, 0);
  const right = found - outcomes.reduce((sum, outcome) => sum + outcome.extra.length, 0);
  return {
    queries: outcomes.length,
    expected,
    found,
    right,
    recall: expected === 0 ? null : right / expected,
    precision: found === 0 ? null : right / found,
  };
}

export function runSearchRecall() {
  const set = readLabelledQueries();
  const texts = Object.fromEntries(
    (Object.keys(set.records) as SearchedResource[]).map((resource) => [
      resource,
      set.records[resource].map((record) => ({ key: record.key, text: searchedText(resource, record) })),
    ]),
  ) as Record<SearchedResource, { key: string; text: string }[]>;

  const groups: [string, (query: LabelledQuery) => boolean][] = [
    ['all but typos', (query) => !query.phenomena.includes('typo')],
    ['typos', (query) => query.phenomena.includes('typo')],
    ...Object.keys(set.phenomena)
      .filter((phenomenon) => phenomenon !== 'typo')
      .map((phenomenon): [string, (query: LabelledQuery) => boolean] => [
        phenomenon,
        (query) => query.phenomena.includes(phenomenon) && !query.phenomena.includes('typo'),
      ]),
    ['typed as stored', (query) => query.phenomena.length === 0 && query.expected.length > 0],
    ['must find nothing', (query) => query.expected.length === 0],
  ];

  return matchers.map((matcher) => {
    const outcomes = set.queries.map((query): Outcome => {
      const found = texts[query.resource]
        .filter((record) => matcher.matches(query.text, record.text))
        .map((record) => record.key);
      return {
        query,
        found,
        missed: query.expected.filter((key) => !found.includes(key)),
        extra: found.filter((key) => !query.expected.includes(key)),
      };
    });
    return {
      matcher: matcher.name,
      scores: groups.map(([group, within]) => ({ group, ...score(outcomes.filter((o) => within(o.query))) })),
      wrong: outcomes
        .filter((outcome) => outcome.missed.length > 0 || outcome.extra.length > 0)
        .map(({ query, missed, extra }) => ({ text: query.text, resource: query.resource, missed, extra })),
    };
  });
}

const ratio = (value: number | null) => (value === null ? '–' : value.toFixed(3));

export function searchRecallMarkdown(report: ReturnType<typeof runSearchRecall>, details: boolean): string {
  return report
    .map(({ matcher, scores, wrong }) =>
      [
        `### ${matcher}`,
        '',
        '| queries | n | expected | found | recall | precision |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        ...scores.map(
          (row) =>
            `| ${row.group} | ${row.queries} | ${row.expected} | ${row.found} | ${ratio(row.recall)} | ${ratio(row.precision)} |`,
        ),
        ...(details
          ? [
              '',
              ...wrong.map(
                (query) =>
                  `- ${query.resource}: \`${query.text}\`${query.missed.length ? ` missed ${query.missed.join(', ')}` : ''}${query.extra.length ? ` found ${query.extra.join(', ')}` : ''}`,
              ),
            ]
          : []),
        '',
      ].join('\n'),
    )
    .join('\n');
}

runAsScript(import.meta.url, async () => {
  const report = runSearchRecall();
  process.stdout.write(searchRecallMarkdown(report, process.env.BENCH_SEARCH_DETAILS === '1'));
  process.stdout.write(`written to ${writeResult('search-recall', report)}\n`);
  return { ok: true };
});
