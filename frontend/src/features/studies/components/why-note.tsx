import type { Explanation } from '../logic/explanations';
import { ReadmeLink } from './study-readme';

/**
 * WhyNote says why a figure is out of its band or a check fails: the recipe's sentence and its
 * README section, or, where the recipe has none, where in the README to read on.
 */
export function WhyNote({ studyId, explanation }: { studyId: string; explanation: Explanation | null }) {
  return explanation ? (
    <>
      {explanation.text}{' '}
      <ReadmeLink studyId={studyId} section={explanation.section}>
        README: {explanation.section}
      </ReadmeLink>
    </>
  ) : (
    <>
      The recipe gives no reason yet; <ReadmeLink studyId={studyId}>its README</ReadmeLink> says how satlab models the study.
    </>
  );
}
