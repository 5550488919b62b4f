import type { FormFieldType } from '@dukkan/contract';
import type { ComponentType } from 'react';
import type { FieldComponentProps } from './field-props.ts';
import { ImageUploadField } from './image-upload-field.tsx';
import { InputField } from './input-field.tsx';
import { LazyDateField } from './lazy-date-field.tsx';
import { LinesField } from './lines-field.tsx';
import { PhoneField, PhoneListField } from './phone-fields.tsx';
import { RadioField } from './radio-field.tsx';
import { SelectField } from './select-field.tsx';
import { SliderField } from './slider-field.tsx';
import { UploadField } from './upload-field.tsx';
import { WorkingHoursField } from './working-hours-field.tsx';

/** The component of each field type of spec §3. */
export const fieldComponents: Record<FormFieldType, ComponentType<FieldComponentProps>> = {
  select: SelectField,
  upload: UploadField,
  imageUpload: ImageUploadField,
  radio: RadioField,
  date: LazyDateField,
  slider: SliderField,
  text: InputField,
  password: InputField,
  number: InputField,
  time: InputField,
  phone: PhoneField,
  phoneNums: PhoneListField,
  workingHours: WorkingHoursField,
  lines: LinesField,
};
