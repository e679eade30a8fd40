// Kimai's Excel export read without a spreadsheet library: an XLSX file is a ZIP archive
// of XML (ECMA-376), and node:zlib inflates its members. The first worksheet's rows become
// the same records a CSV gives (row number as the line), cells as the text a CSV export
// would have: shared strings, numbers, and dates and times from their number formats
// (serial days since 1899-12-30; a `[h]:mm` duration as hours:minutes:seconds).
// A ZIP is read from its end (the central directory), so the file is held whole: an
// export of a few hundred thousand rows is tens of MB, and MAX_XLSX_BYTES bounds it.
import { inflateRawSync } from 'node:zlib';
import type { CsvRecord } from './csv';
import { serialToWall } from './values';

export const MAX_XLSX_BYTES = 256 * 1024 * 1024;

/** A ZIP's local file header signature: what every XLSX starts with. */
export const isXlsx = (head: Buffer): boolean =>
  head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;

export class XlsxError extends Error {
  readonly line = 1;
}

/** The archive's members by name, inflated on demand. */
function zipMembers(zip: Buffer): Map<string, () => Buffer> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxError('the spreadsheet is not a whole XLSX (ZIP) file');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const members = new Map<string, () => Buffer>();
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new XlsxError('the XLSX file is damaged');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    members.set(name, () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      throw new XlsxError(`the XLSX file uses ZIP compression ${method}`);
    });
    at += 46 + nameLength + extra + comment;
  }
  return members;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const xmlText = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)),
        )
      : (ENTITIES[e.toLowerCase()] as string),
  );

/** The text of the `<t>` runs in a piece of XML (a shared string, an inline string). */
const textOf = (xml: string) =>
  [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)]
    .map((m) => xmlText(m[1] ?? ''))
    .join('');

type CellKind = 'number' | 'date' | 'duration';

/** What each cell style's number format shows: a date or time, a duration, a number. */
function styleKinds(xml: string | undefined): CellKind[] {
  if (!xml) return [];
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<numFmt\s[^>]*numFmtId="(\d+)"[^>]*formatCode="([^"]*)"/g)) {
    custom.set(Number(m[1]), xmlText(m[2] as string));
  }
  const xfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml)?.[1] ?? '';
  return [...xfs.matchAll(/<xf\s[^>]*?numFmtId="(\d+)"/g)].map((m) => {
    const id = Number(m[1]);
    if (id === 46) return 'duration';
    if ((id >= 14 && id <= 22) || id === 45 || id === 47) return 'date';
    const code = (custom.get(id) ?? '').replace(/"[^"]*"|\\./g, '');
    if (/\[h+\]/i.test(code)) return 'duration';
    return /[dmyhs]/i.test(code) ? 'date' : 'number';
  });
}

function cellText(value: number, kind: CellKind | undefined): string {
  if (kind === 'duration') {
    const s = Math.round(value * 86_400);
    const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
    return `${Math.floor(s / 3600)}:${mm}:${String(s % 60).padStart(2, '0')}`;
  }
  if (kind !== 'date') return String(value);
  const wall = serialToWall(value);
  if (value < 1) return wall.clock;
  return Number.isInteger(value) ? wall.date : `${wall.date} ${wall.clock}`;
}

const columnIndex = (ref: string) => {
  let n = 0;
  for (const c of ref) {
    const code = c.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + code - 64;
  }
  return n - 1;
};

/** The first worksheet's path inside the archive, as the workbook lists its sheets. */
function firstSheet(members: Map<string, () => Buffer>): string {
  const workbook = members.get('xl/workbook.xml')?.().toString('utf8') ?? '';
  const rels = members.get('xl/_rels/workbook.xml.rels')?.().toString('utf8') ?? '';
  const id = /<sheet\s[^>]*r:id="([^"]+)"/.exec(workbook)?.[1];
  const target = id
    ? (new RegExp(`<Relationship\\s[^>]*Id="${id}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] ??
      new RegExp(`<Relationship\\s[^>]*Target="([^"]+)"[^>]*Id="${id}"`).exec(rels)?.[1])
    : undefined;
  const path = target ? (target.startsWith('/') ? target.slice(1) : `xl/${target}`) : undefined;
  if (path && members.has(path)) return path;
  const any = [...members.keys()].find((k) => /^xl\/worksheets\/[^/]+\.xml$/.test(k));
  if (!any) throw new XlsxError('the XLSX file has no worksheet');
  return any;
}

/** The first worksheet's rows as records, in batches. */
export async function* xlsxBatches(
  input: AsyncIterable<Buffer | string>,
  batch = 10_000,
): AsyncGenerator<CsvRecord[], void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += b.length;
    if (size > MAX_XLSX_BYTES) throw new XlsxError('the XLSX file is larger than 256 MiB');
    chunks.push(b);
  }
  const members = zipMembers(Buffer.concat(chunks));
  chunks.length = 0;
  const strings = [
    ...(members.get('xl/sharedStrings.xml')?.().toString('utf8') ?? '').matchAll(
      /<si>([\s\S]*?)<\/si>/g,
    ),
  ].map((m) => textOf(m[1] as string));
  const kinds = styleKinds(members.get('xl/styles.xml')?.().toString('utf8'));
  const sheet = (members.get(firstSheet(members)) as () => Buffer)().toString('utf8');
  let out: CsvRecord[] = [];
  let first = true;
  for (const row of sheet.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const line = Number(/\br="(\d+)"/.exec(row[1] as string)?.[1] ?? out.length + 1);
    const fields: string[] = [];
    for (const c of (row[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = c[1] as string;
      const body = c[2] ?? '';
      const ref = /\br="([A-Z]+)\d*"/.exec(attrs)?.[1];
      const index = ref ? columnIndex(ref) : fields.length;
      const type = /\bt="(\w+)"/.exec(attrs)?.[1];
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let text = '';
      if (type === 's') text = strings[Number(v)] ?? '';
      else if (type === 'inlineStr') text = textOf(body);
      else if (type === 'str' || type === 'e') text = xmlText(v ?? '');
      else if (type === 'b') text = v === '1' ? 'TRUE' : 'FALSE';
      else if (v !== undefined) {
        text = cellText(Number(v), kinds[Number(/\bs="(\d+)"/.exec(attrs)?.[1] ?? 0)]);
      }
      while (fields.length < index) fields.push('');
      fields[index] = text;
    }
    if (fields.every((f) => f === '')) continue;
    out.push({ line, fields });
    if (first || out.length >= batch) {
      first = false;
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}
