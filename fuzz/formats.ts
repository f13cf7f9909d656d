import * as fc from 'fast-check';

/**
 * String formats of ajv-formats ("full" mode) that the generators produce on purpose. Each entry has a
 * shrinking arbitrary, the shortest readable value, and a realistic value; all three validate with ajv-formats.
 */
interface StringFormat {
  arbitrary: () => fc.Arbitrary<string>;
  minimal: string;
  rich: string;
}

const lower = 'abcdefghijklmnopqrstuvwxyz';
const alnum = `${lower}0123456789`;
const word = (chars: string, minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength });
const label = (): fc.Arbitrary<string> =>
  fc.tuple(word(lower, 1, 1), word(`${alnum}-`, 0, 6), word(alnum, 0, 1)).map(([a, b, c]) => (c === '' ? `${a}${b.replace(/-+$/, '')}` : `${a}${b}${c}`));
const hostname = (): fc.Arbitrary<string> => fc.tuple(fc.array(label(), { minLength: 1, maxLength: 2 }), word(lower, 2, 4)).map(([labels, tld]) => [...labels, tld].join('.'));
const pathSegments = (): fc.Arbitrary<string> => fc.array(word(`${alnum}-_`, 1, 6), { maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join(''));
const url = (): fc.Arbitrary<string> => fc.tuple(fc.constantFrom('https', 'http'), hostname(), pathSegments()).map(([scheme, host, path]) => `${scheme}://${host}${path}`);
const instant = (): fc.Arbitrary<Date> => fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true });
const pointer = (): fc.Arbitrary<string> => fc.array(word(`${alnum}_`, 0, 5), { maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join(''));

const FORMATS: Record<string, StringFormat> = {
  'date-time': { arbitrary: () => instant().map((d) => d.toISOString()), minimal: '1970-01-01T00:00:00Z', rich: '2024-05-17T09:30:00.000Z' },
  'iso-date-time': { arbitrary: () => instant().map((d) => d.toISOString()), minimal: '1970-01-01T00:00:00Z', rich: '2024-05-17T09:30:00.000Z' },
  date: { arbitrary: () => instant().map((d) => d.toISOString().slice(0, 10)), minimal: '1970-01-01', rich: '2024-05-17' },
  time: { arbitrary: () => instant().map((d) => d.toISOString().slice(11)), minimal: '00:00:00Z', rich: '09:30:00.000Z' },
  'iso-time': { arbitrary: () => instant().map((d) => d.toISOString().slice(11)), minimal: '00:00:00Z', rich: '09:30:00.000Z' },
  duration: { arbitrary: () => fc.tuple(fc.nat(30), fc.nat(23)).map(([d, h]) => `P${d}DT${h}H`), minimal: 'P0D', rich: 'P1DT2H' },
  email: { arbitrary: () => fc.tuple(word(alnum, 1, 8), hostname()).map(([local, host]) => `${local}@${host}`), minimal: 'a@a.aa', rich: 'user@example.com' },
  'idn-email': { arbitrary: () => fc.tuple(word(alnum, 1, 8), hostname()).map(([local, host]) => `${local}@${host}`), minimal: 'a@a.aa', rich: 'user@example.com' },
  hostname: { arbitrary: hostname, minimal: 'a', rich: 'example.com' },
  'idn-hostname': { arbitrary: hostname, minimal: 'a', rich: 'example.com' },
  uri: { arbitrary: url, minimal: 'https://a.aa', rich: 'https://example.com/path' },
  url: { arbitrary: url, minimal: 'https://a.aa', rich: 'https://example.com/path' },
  iri: { arbitrary: url, minimal: 'https://a.aa', rich: 'https://example.com/path' },
  'uri-reference': { arbitrary: () => fc.oneof(pathSegments(), url()), minimal: '', rich: 'https://example.com/path' },
  'iri-reference': { arbitrary: () => fc.oneof(pathSegments(), url()), minimal: '', rich: 'https://example.com/path' },
  'uri-template': { arbitrary: () => url().map((u) => `${u}/{id}`), minimal: 'https://a.aa', rich: 'https://example.com/items/{id}' },
  uuid: { arbitrary: () => fc.uuid(), minimal: '00000000-0000-0000-0000-000000000000', rich: '3f2c1b7e-8d4a-4c6b-9e21-5a7f0c3d9b12' },
  ipv4: { arbitrary: () => fc.ipV4(), minimal: '0.0.0.0', rich: '192.0.2.10' },
  ipv6: { arbitrary: () => fc.ipV6(), minimal: '::', rich: '2001:db8::10' },
  byte: { arbitrary: () => fc.base64String({ maxLength: 16 }), minimal: '', rich: 'aGVybWVz' },
  'json-pointer': { arbitrary: pointer, minimal: '', rich: '/items/0' },
  'relative-json-pointer': { arbitrary: () => fc.tuple(fc.nat(5), pointer()).map(([up, p]) => `${up}${p}`), minimal: '0', rich: '1/name' },
  regex: { arbitrary: () => fc.constantFrom('.*', '^[a-z]+$', '\\d{2,4}', '^(a|b)c?$'), minimal: '.*', rich: '^[a-z]+$' },
};

/** Formats that constrain numbers rather than strings (ajv-formats): [min, max] for the integer ones. */
export const NUMBER_FORMAT_BOUNDS: Record<string, [number, number] | undefined> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  float: undefined,
  double: undefined,
};

export function knownStringFormat(formats: readonly string[]): string | undefined {
  return formats.find((f) => FORMATS[f] !== undefined);
}

export function formatArbitrary(format: string): fc.Arbitrary<string> | undefined {
  return FORMATS[format]?.arbitrary();
}

export function formatSample(format: string, kind: 'minimal' | 'rich'): string | undefined {
  return FORMATS[format]?.[kind];
}

/** Every string format the generators know, for tests and for the mutation of `format`. */
export const STRING_FORMATS: readonly string[] = Object.keys(FORMATS);
