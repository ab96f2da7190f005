export { FieldProblems, type FieldProblemsProps, describedBy } from './field-problems';
export { NumberField, type NumberFieldProps } from './number-field';
export { type NumberLimit, numberProblem } from './number-problem';
export { SelectField, type SelectFieldProps } from './select-field';
export { SubmitRow, type SubmitRowProps } from './submit-row';
export { TextField, type TextFieldProps } from './text-field';
export { useFieldProblems } from './use-field-problems';
