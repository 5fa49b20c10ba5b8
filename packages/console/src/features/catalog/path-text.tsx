import { Fragment } from 'react';
import { pathNames } from './category-tree';

/** A category's path (a pathLabel) in a list of options: each name in its own <bdi>, read as "Kitchen › Mugs". */
export function PathText({ label }: { label: string }) {
  return pathNames(label).map((name, i) => (
    <Fragment key={i}>
      {i > 0 ? ' › ' : null}
      <bdi>{name}</bdi>
    </Fragment>
  ));
}
