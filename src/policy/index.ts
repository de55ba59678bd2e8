export {
  compilePolicies,
  deniedOutright,
  evaluatePolicies,
  orderPolicies,
  type Policy,
  type PolicyDecision,
  policy,
  type ToolCallForApproval,
} from "./policy.js";
