/*
 * The headers of an exported list: the fields' labels the list's columns show too, from the
 * contract (`@dukkan/contract/field-labels`), so a field is named once for the list, its file and
 * the import that reads the file back.
 */
export { fieldHeader, localizedHeader } from '@dukkan/contract/field-labels';
