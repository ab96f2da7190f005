export { limitNameInWords, limitValueInWords } from './quota-words';
export { type Limit, type Me, type Session, getLimits, getMe, heldToStudentQuotas, mayStartCampaigns, mustSignIn } from './session';
export { useSession } from './use-session';
