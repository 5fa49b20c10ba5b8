/**
 * Choosing a variant by its options (size, colour): which values exist, which are in stock given the
 * other choices, and the link that selects each (so the choice works as plain links without JavaScript,
 * and the selected variant's URL can be shared).
 */
export interface ChoosableVariant {
  public_id: string;
  options: Record<string, string>;
  in_stock: boolean;
}

export interface OptionValue {
  value: string;
  selected: boolean;
  /** The variant this value leads to is in stock. */
  available: boolean;
  /** The choice this value leads to: with the other current choices if that variant exists, else the nearest one that does. */
  target: Record<string, string>;
}

export interface OptionGroup {
  name: string;
  values: OptionValue[];
}

/** Option names in the order they first appear, values in the order of the variants. */
export function optionNames(variants: readonly ChoosableVariant[]): string[] {
  const names: string[] = [];
  for (const variant of variants) for (const name of Object.keys(variant.options)) if (!names.includes(name)) names.push(name);
  return names;
}

const matches = (variant: ChoosableVariant, choice: Record<string, string>) =>
  Object.entries(choice).every(([name, value]) => variant.options[name] === value);

/** The variant a choice names; a partial or impossible choice falls back to the first in-stock variant. */
export function chosenVariant<V extends ChoosableVariant>(variants: readonly V[], choice: Record<string, string>): V | undefined {
  const names = optionNames(variants);
  const complete = names.every((name) => choice[name] !== undefined);
  return (
    (complete ? variants.find((v) => matches(v, choice)) : undefined) ??
    variants.find((v) => v.in_stock && matches(v, choice)) ??
    variants.find((v) => matches(v, choice)) ??
    variants.find((v) => v.in_stock) ??
    variants[0]
  );
}

export function optionGroups(variants: readonly ChoosableVariant[], selected: ChoosableVariant | undefined): OptionGroup[] {
  const current = selected?.options ?? {};
  return optionNames(variants).map((name) => {
    const values: string[] = [];
    for (const variant of variants) {
      const value = variant.options[name];
      if (value !== undefined && !values.includes(value)) values.push(value);
    }
    return {
      name,
      values: values.map((value) => {
        const wanted = { ...current, [name]: value };
        const exact = variants.find((v) => matches(v, wanted));
        // Otherwise the variant with this value that keeps most of the other choices, in stock first.
        const nearest = [...variants]
          .filter((v) => v.options[name] === value)
          .sort((a, b) => Number(b.in_stock) - Number(a.in_stock) || score(b, wanted) - score(a, wanted))[0];
        const target = exact ?? nearest;
        return {
          value,
          selected: current[name] === value,
          available: Boolean(target?.in_stock),
          target: target?.options ?? wanted,
        };
      }),
    };
  });
}

const score = (variant: ChoosableVariant, wanted: Record<string, string>) =>
  Object.entries(wanted).filter(([name, value]) => variant.options[name] === value).length;

/** The choice a URL makes: each option's name as a parameter. */
export function choiceFrom(params: URLSearchParams, names: readonly string[]): Record<string, string> {
  const choice: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value !== null) choice[name] = value;
  }
  return choice;
}

/** The product page's URL for a choice (other parameters, such as the reviews page, are left out). */
export function choiceHref(path: string, choice: Record<string, string>): string {
  const params = new URLSearchParams(choice);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
