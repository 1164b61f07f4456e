/**
 * `@kubekit/cel` is the CEL engine of Kubernetes in TypeScript: expressions parsed (with
 * `@bufbuild/cel`'s parser), type-checked as cel-go does with its error messages, cost-estimated as the
 * apiserver does when a CRD is written, and evaluated with cel-go's runtime cost; the Kubernetes
 * environment's libraries (strings, lists, regex, URLs, IP/CIDR, quantity, format, semver, sets,
 * optionals); and the mapping from a structural schema to the CEL types of `self` and `oldSelf`.
 *
 * Start with {@link compile} (an expression → a {@link Program} you {@link Program.evaluate | evaluate}
 * against JSON objects) and {@link estimateCost}. `@kubekit/crd` builds `x-kubernetes-validations` on
 * the lower-level pieces exported after them ({@link compileExpression}, {@link ruleEnvironment},
 * {@link evaluateChecked}, {@link fromJSON}, the cost limits). Admission expressions (ValidatingAdmissionPolicy)
 * compile in their own environment with {@link AdmissionCompiler} and evaluate with its activations.
 *
 * @packageDocumentation
 */

export { CelError, compile, estimateCost } from './compile.js';
export { AdmissionActivation, AdmissionCompiler, celTypeString } from './admission.js';
export { celSelectorExpressionMaxCost, deviceSelectorIssue, type DeviceSelectorIssue } from './deviceSelector.js';
export { celRuntime, compileExpression, ruleEnvironment } from './celEnvironment.js';
export {
  costErrorMessage, perCallLimit, runtimeCELCostBudget, staticEstimatedCRDCostLimit, staticEstimatedCostLimit,
} from './cost.js';
export { assignTypeNames, maxRequestSizeBytes, ruleDeclType, schemaDeclType } from './schemaTypes.js';
export { CostLimitExceededError, evaluate as evaluateChecked } from './internal/interpreter.js';
export { BoolType, DynType, IntType, StringType, formatType } from './internal/types.js';
export { ErrVal, OptionalVal, fromJSON, withTypeAndObjectMeta } from './internal/values.js';
export { formatValidators as stringFormatValidators } from './internal/stringFormats.js';
export { goKind, goTypeName } from './internal/goKind.js';
export { parseQuantity, QuantityVal } from './libraries/quantity.js';

export type { CompileOptions, CostEstimate, EvaluateOptions, Evaluation, Program } from './compile.js';
export type {
  AdmissionAuthorizer, AdmissionCompileResult, AdmissionDeclarations, AdmissionEvaluation, AdmissionInput, AdmissionProgram, AdmissionResultType,
} from './admission.js';
export type { AuthorizationAnswer, AuthorizationCheck, AuthorizationUser, Authorize } from './libraries/authz.js';
export type { CompileResult, CompiledExpression, ExpressionEnvironment, RuleVariables } from './celEnvironment.js';
export type { Range } from './cost.js';
export type { DeclField, DeclType } from './schemaTypes.js';
export type { Schema } from './schema.js';
export type { CheckEnv, CheckedExpr } from './internal/checker.js';
export type { EvalResult, Runtime } from './internal/interpreter.js';
export type { CelType } from './internal/types.js';
export type { CelVal } from './internal/values.js';
export type { GoKind } from './internal/goKind.js';
