import { CreateEmailCallback } from "@/modules/email-callbacks/components/create-email-callback";

export default function CreateEmailCallbackPage() {
  return <CreateEmailCallback />;
}
