import { NotFound } from "@/modules/shared/components/not-found";

export default function NotFoundPage() {
  return <NotFound />;
}
