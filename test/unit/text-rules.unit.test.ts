import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { chooseSlugs, slugify } from '../../src/catalog/slug.js';
import { toCsv } from '../../src/lib/csv.js';
import { AppError } from '../../src/lib/errors.js';
import { isPlainText, MIXED_PASSWORD, VISIBLE } from '../../src/lib/text.js';
import { isPasswordTooSimple } from '../../src/identity/rules.js';

describe('slugs', () => {
  test('examples', () => {
    assert.equal(slugify("Men's Shoes & Boots"), 'mens-shoes-boots');
    assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
    assert.equal(slugify('  --Hello   World--  '), 'hello-world');
    assert.equal(slugify('日本語'), 'item');
    assert.equal(slugify(''), 'item');
  });

  test('any name gives a URL-safe slug of at most 100 characters with no leading, trailing or double dashes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (name) => {
        const slug = slugify(name);
        return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) && slug.length <= 100;
      }),
      { numRuns: 2000 },
    );
  });

  test('many at once (an import): each free, none twice among them; an explicit slug in use is refused', async () => {
    const taken = () => new AppError('SLUG_TAKEN', 'taken');
    const inUse = async (candidates: string[]) => new Set(candidates.filter((c) => c === 'desk-lamp' || c === 'chair'));
    const slugs = await chooseSlugs(
      [
        { explicit: undefined, name: 'Desk Lamp' },
        { explicit: undefined, name: 'Desk-Lamp' },
        { explicit: 'stool', name: 'Stool' },
        { explicit: undefined, name: 'Stool' },
      ],
      taken,
      inUse,
    );
    assert.equal(new Set(slugs).size, 4);
    assert.match(slugs[0]!, /^desk-lamp-[a-z0-9]{6}$/);
    assert.match(slugs[1]!, /^desk-lamp-[a-z0-9]{6}$/);
    assert.deepEqual(slugs.slice(2, 3), ['stool']);
    assert.match(slugs[3]!, /^stool-[a-z0-9]{6}$/);
    await assert.rejects(chooseSlugs([{ explicit: 'chair', name: 'Chair' }], taken, inUse), { code: 'SLUG_TAKEN' });
  });
});

describe('CSV', () => {
  test('quoting per RFC 4180, CRLF line ends, nulls empty', () => {
    const csv = toCsv(
      ['a', 'b', 'c'],
      [
        { a: 'plain', b: 'with, comma', c: null },
        { a: 'say "hi"', b: 'two\nlines', c: 42 },
      ],
    );
    assert.equal(csv, 'a,b,c\r\nplain,"with, comma",\r\n"say ""hi""","two\nlines",42\r\n');
  });

  test('cells a spreadsheet would run as formulas are defused; negative numbers are left alone', () => {
    const csv = toCsv(['x'], [{ x: '=HYPERLINK("http://evil")' }, { x: '+1+1' }, { x: '@SUM(A1)' }, { x: '-12.50' }, { x: '-cmd' }]);
    assert.equal(csv, `x\r\n"'=HYPERLINK(""http://evil"")"\r\n'+1+1\r\n'@SUM(A1)\r\n-12.50\r\n'-cmd\r\n`);
  });
});

describe('plain text', () => {
  test('a single line refuses control characters and line breaks; multi-line text allows tab and line breaks only', () => {
    assert.equal(isPlainText('Ada Lovelace', 'line'), null);
    assert.match(isPlainText('Ada\nLovelace', 'line') ?? '', /line breaks/);
    assert.match(isPlainText('nul\u0000', 'line') ?? '', /control/);
    assert.match(isPlainText('sep\u2028', 'line') ?? '', /control/);
    assert.equal(isPlainText('line one\r\nline two\tend', 'multiline'), null);
    assert.match(isPlainText('bell\u0007', 'multiline') ?? '', /control/);
    assert.match(isPlainText('lone \ud800 surrogate', 'multiline') ?? '', /valid Unicode/);
  });

  test('a single line refuses bidirectional controls and zero-width characters; multi-line text and secrets keep them', () => {
    const invisible = ['\u00ad', '\u034f', '\u115f', '\u180e', '\u3164', '\uffa0', '\u2800', '\u{e0041}', '\u{1d173}'];
    for (const c of ['\u202a', '\u202e', '\u2066', '\u2069', '\u200b', '\u200c', '\u200d', '\u2060', '\u2064', '\ufeff', ...invisible]) {
      assert.match(isPlainText(`abc${c}txt.exe`, 'line') ?? '', /bidirectional controls or zero-width/);
      assert.equal(isPlainText(`abc${c}txt`, 'multiline'), null);
      assert.equal(isPlainText(`abc${c}txt`, 'secret'), null);
    }
    // The implicit direction marks stay: right-to-left writers type them.
    assert.equal(isPlainText('שלום\u200f', 'line'), null);
    assert.equal(isPlainText('a\u200eb', 'line'), null);
    assert.equal(isPlainText('a\u061cb', 'line'), null);
    // So do variation selectors, which pick a glyph (the red heart emoji), and combining marks.
    assert.equal(isPlainText('I \u2764\ufe0f tea', 'line'), null);
    assert.equal(isPlainText('\u1820\u180b', 'line'), null);
    assert.equal(isPlainText('Cafe\u0301 😀', 'line'), null);
    // Joiners where a spelling or an emoji needs them: Persian, Devanagari, Malayalam, emoji sequences.
    for (const needed of [
      'می\u200cخواهم',
      'क्\u200dष',
      'क्\u200cष',
      'ന്\u200dന',
      '👩\u200d💻',
      '👨\u200d👩\u200d👧',
      '👋🏽\u200d🤝\u200d👋🏻',
      '❤️\u200d🔥',
    ])
      assert.equal(isPlainText(`Name ${needed}`, 'line'), null, needed);
    // Anywhere else they only disguise: between Latin, Greek or Cyrillic letters, at an end, after a space, doubled.
    for (const disguise of [
      'ad\u200cmin',
      'ad\u200dmin',
      'Ωμ\u200cέγα',
      'Анна\u200d',
      '\u200cمی',
      'می \u200cخ',
      'a😀\u200d',
      '😀\u200d\u200d😀',
      'ب\u200b\u200cب',
    ])
      assert.match(isPlainText(disguise, 'line') ?? '', /zero-width/, JSON.stringify(disguise));
    // A secret is still one line of printable text.
    assert.match(isPlainText('pass\nword', 'secret') ?? '', /line breaks/);
    assert.match(isPlainText('pass\u0000word', 'secret') ?? '', /control/);
  });

  test('VISIBLE needs something a reader can see', () => {
    const visible = new RegExp(VISIBLE, 'u');
    assert.ok(visible.test('a'));
    assert.ok(visible.test('€'));
    assert.ok(!visible.test(' \u200b\u200d\u2060'));
    assert.ok(!visible.test('\u3164\u2800\uffa0\u115f'), 'fillers and the blank Braille pattern show nothing');
    assert.ok(visible.test('\u3164가'));
  });
});

describe('the new-password pattern', () => {
  test("says what the password policy says, for any text (the schema's check and the services' agree)", () => {
    const mixed = new RegExp(MIXED_PASSWORD, 'u');
    const kinds = fc.constantFrom('a', 'Z', '7', '!', ' ', '\n', 'é', '😀');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.array(kinds, { maxLength: 12 }).map((parts) => parts.join('')),
        ),
        (password) => {
          assert.equal(mixed.test(password), !isPasswordTooSimple(password), JSON.stringify(password));
        },
      ),
      { numRuns: 3000 },
    );
    for (const weak of ['abcdefgh', 'ABCDEFGH', '12345678', '!!!!!!!!']) assert.equal(mixed.test(weak), false, weak);
    for (const strong of ['abcdefg1', 'ABCDEFg', '1234567!', 'pass word']) assert.equal(mixed.test(strong), true, strong);
  });
});
