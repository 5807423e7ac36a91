// What every check returns: one line per problem, naming the file it is in.
export interface Finding {
  file: string;
  message: string;
}

export function finding(file: string, message: string): Finding {
  return { file, message };
}
