// A DNS name that wraps after its dots rather than inside a label, where the line allows it.
import { Fragment } from "react";

export function NameBreakingAtDots({ name }: { name: string }) {
  const labels = name.split(".");
  return labels.map((label, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a name's labels are fixed, and may repeat.
    <Fragment key={index}>
      {label}
      {index < labels.length - 1 ? (
        <>
          .<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}
